#include "engine/capabilities/capabilities.hpp"

#include <cerrno>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "engine/counting/group_opener.hpp"
#include "engine/counting/messages.hpp"
#include "engine/placement/numa_status.hpp"
#include "engine/profile/sampling_choice.hpp"
#include "engine/profile/stacks.hpp"
#include "engine/tiers/simulated/simulated_status.hpp"
#include "engine/timing/clock.hpp"
#include "os/symbols.hpp"

namespace glint::engine {
namespace {

using State = Status::State;

Status scalar_counting(const PerfRequest& perf, const CapabilityProbeConfig& config) {
    counting::OpenedGroup opened = counting::open_counting_group(
        counting::OpenRequest{perf.scaled, perf.inherit, config.pmu_root});
    const Status& tier = opened.statuses.front();
    Status s{"scalar-counting", tier.state, tier.reason, tier.remedy};
    if (opened.usable()) {
        s.reason += "; read path: syscall (ioctl + read(2)) per bracket";
        for (std::size_t i = 1; i < opened.statuses.size(); ++i)
            if (opened.statuses[i].state != State::available &&
                opened.statuses[i].capability != "perf.hardware-events")
                s.reason += "; " + opened.statuses[i].reason;
    }
    return s;
}

Status symbolization() {
    os::Symbolizer symbols;
    return profile::symbolization_status(symbols);
}

Status event_space() {
    using Outcome = os::TracepointProbe::Outcome;
    const os::TracepointProbe p = os::probe_tracepoint_counting();
    switch (p.outcome) {
        case Outcome::countable:
            return {"event-space", State::available,
                    fmt::format("tracepoints are countable: {} is mounted and a counting "
                                "raw_syscalls:sys_enter event opens (the --syscalls tier)",
                                p.tracefs),
                    ""};
        case Outcome::no_tracefs:
            return {"event-space", State::unavailable,
                    "tracefs is not mounted (neither /sys/kernel/tracing nor "
                    "/sys/kernel/debug/tracing has events/), so tracepoint ids cannot be read",
                    "mount -t tracefs nodev /sys/kernel/tracing (as root)"};
        case Outcome::id_unreadable:
            if (p.error == ENOENT)
                return {"event-space", State::unavailable,
                        fmt::format("{} does not exist: this kernel has no syscall tracepoints",
                                    p.id_path),
                        "a kernel built with CONFIG_FTRACE_SYSCALLS"};
            return {
                "event-space", State::unavailable,
                fmt::format("{} is unreadable: {}", p.id_path, counting::describe_errno(p.error)),
                "run as root, or make tracefs readable (it is 0700 on hardened hosts)"};
        case Outcome::open_refused:
            return {"event-space", State::unavailable,
                    fmt::format("perf_event_open refused a tracepoint counter: {} ({})",
                                counting::describe_errno(p.error),
                                counting::describe_paranoid(os::perf_event_paranoid())),
                    counting::is_permission_error(p.error)
                        ? "sysctl kernel.perf_event_paranoid=1, or CAP_PERFMON"
                        : ""};
        case Outcome::not_supported:
            break;
    }
    return {"event-space", State::unavailable,
            "tracepoints are a Linux perf_event feature; this OS has none", ""};
}

Status event_naming(const CapabilityProbeConfig& config) {
    const os::LibraryProbe p = os::probe_library(config.pfm_soname, "pfm_get_version");
    if (!p.loaded)  // off Linux (!supported) nothing counts, so nothing "still works"
        return {
            "event-naming", State::unavailable,
            fmt::format("{} cannot be loaded ({}): pfm: selectors cannot resolve names{}", p.soname,
                        p.error,
                        p.supported ? "; raw: selectors and the generic events still work" : ""),
            p.supported ? "apt-get install libpfm4" : ""};
    const std::string version =
        p.version ? fmt::format(" (libpfm API {}.{})", *p.version >> 16, *p.version & 0xffff) : "";
    const os::PmuInventory pmus = os::list_pmus(config.pmu_root);
    const std::string scope =
        pmus.listed && pmus.cpu_pmus.empty()
            ? "; with no CPU PMU here it can name only the kernel's generic and software events"
            : "";
    return {"event-naming", State::available,
            fmt::format("{} loads{}, so symbolic event names can be resolved to encodings{}",
                        p.soname, version, scope),
            ""};
}

Status instruction_level() {
#if !defined(GLINT_CONFIG_ARCH_x86_64) && !defined(GLINT_CONFIG_ARCH_aarch64)
    return {"instruction-level", State::not_built,
            fmt::format("instruction-level cases (<glint/asm.hpp>) need the x86-64 (xbyak) or the "
                        "AArch64 (glint::a64) emitter; this build's ISA back end is {}",
                        GLINT_CONFIG_ARCH_NAME),
            ""};
#else
#if defined(GLINT_CONFIG_ARCH_x86_64)
    constexpr const char* kEmitter = "xbyak";
    constexpr const char* kClock = "TSC";
#else
    constexpr const char* kEmitter = "glint::a64::Assembler";
    constexpr const char* kClock = "CNTVCT";
#endif
    const ClockProperties& clock = clock_properties();
    const std::string columns =
        clock.ticks_usable
            ? fmt::format(
                  "{0} ticks (the {0} at {1:.3g} GHz) and add-cycles, an estimate against a "
                  "dependent add chain calibrated at run time",
                  kClock, 1 / clock.ns_per_tick)
            : fmt::format("no {} or add-cycles columns: the timestamp counter is not usable ({})",
                          kClock, clock.ticks_why);
    return {
        "instruction-level", State::available,
        fmt::format("asm cases (<glint/asm.hpp>, {}): time per instruction by the difference "
                    "method; {}; counters per instruction by the same difference (ratio columns "
                    "—, no profile)",
                    kEmitter, columns),
        ""};
#endif
}

// Whose work a count covers (docs/threads.md), given whether this host counts at all.
Status thread_coverage(const Status& counting) {
    if (!counting.usable())
        return {
            "thread-coverage", State::unavailable,
            "nothing is counted here (scalar-counting): multi-threaded cases (glint::threads) are "
            "timed across every thread, never counted",
            ""};
    return {
        "thread-coverage", State::available,
        "multi-threaded cases (glint::threads): each thread opens and reads its own perf, raw: and "
        "pfm: groups and the row sums them (rows[].threadCoverage, threadCounts); tier0 counts the "
        "whole process; the syscall tier follows one thread (cells —); a one-thread row counts "
        "other threads and child processes only under --perf-inherit (those created after the "
        "counters open when they exit, those already running through a group on each) and names "
        "the work that escaped its counts: threads (tid, name, CPU time, whether they existed "
        "before the counters opened) and child processes not waited for (pid, CPU time)",
        ""};
}

}  // namespace

std::vector<Status> probe_capabilities(const PerfRequest& perf) {
    return probe_capabilities(perf, CapabilityProbeConfig{});
}

std::vector<Status> probe_capabilities(const PerfRequest& perf,
                                       const CapabilityProbeConfig& config) {
    const profile::SamplingPlan sampling =
        profile::plan_sampling(ProfileRequest{}.hz, config.pmu_root);
    const Status counting = scalar_counting(perf, config);
    return {counting,
            profile::overflow_sampling_status(sampling),
            profile::precise_data_source_status(sampling),
            symbolization(),
            event_space(),
            numa_topology_status(config.sys_root),
            event_naming(config),
            instruction_level(),
            thread_coverage(counting),
            simulated::simulated_status()};
}

Json capabilities_json(const std::vector<Status>& statuses) {
    Json out = Json::array();
    for (const auto& s : statuses) out.push_back(status_json(s));
    return out;
}

}  // namespace glint::engine
