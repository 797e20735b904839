#include "engine/counting/messages.hpp"

#include <cerrno>
#include <cmath>

#include <fmt/format.h>

namespace glint::engine::counting {

std::string describe_paranoid(std::optional<int> paranoid) {
    if (!paranoid) return "kernel.perf_event_paranoid unreadable";
    return fmt::format("kernel.perf_event_paranoid={}", *paranoid);
}

std::string no_hardware_reason(const os::PmuInventory& pmus, const os::OpenFailure& failure,
                               const std::string& pmu_root) {
    const std::string refused =
        fmt::format("the kernel refused the {} event with {}", os::event_name(failure.event),
                    describe_errno(failure.error));
    if (!pmus.listed)
        return fmt::format("no hardware events: {} ({} is unreadable)", refused, pmu_root);
    if (pmus.cpu_pmus.empty()) {
        return fmt::format(
            "no hardware PMU: {} lists {} and no CPU PMU (as in a VM without a virtual PMU); {}",
            pmu_root, pmus.devices.empty() ? std::string("nothing") : join(pmus.devices), refused);
    }
    return fmt::format("no hardware events: {} although {} lists the CPU PMU {}", refused, pmu_root,
                       join(pmus.cpu_pmus));
}

std::string no_hardware_gist(const os::PmuInventory& pmus, const std::string& pmu_root) {
    if (!pmus.listed) return fmt::format("no hardware events ({} is unreadable)", pmu_root);
    if (pmus.cpu_pmus.empty()) return "no hardware PMU, as in a VM without a virtual PMU";
    return fmt::format("no hardware events although the CPU PMU {} is listed", join(pmus.cpu_pmus));
}

std::string software_fallback_note(std::string_view gist, const std::vector<os::Event>& events,
                                   std::string_view scope) {
    return fmt::format("software events only, {} ({}): {} (details: --capabilities)",
                       join_events(events), scope, gist);
}

std::string no_hardware_remedy() {
    return "ipc, instr, cycles, branch-miss and cache-miss need a hardware PMU: run on a host, "
           "or in a VM with a virtual PMU (e.g. KVM/QEMU with -cpu host and the guest PMU on)";
}

std::string user_only_reason(int error, std::optional<int> paranoid) {
    return fmt::format(
        "user-only counting (exclude_kernel): kernel+user was refused with {} "
        "({}); kernel work inside the body is not counted",
        describe_errno(error), describe_paranoid(paranoid));
}

std::string user_only_remedy() {
    return "sysctl kernel.perf_event_paranoid=1 (or CAP_PERFMON) counts kernel work too";
}

std::string permission_refused_reason(int error, std::optional<int> paranoid) {
    return fmt::format(
        "perf_event_open refused even user-only counting of this process with "
        "{} ({})",
        describe_errno(error), describe_paranoid(paranoid));
}

std::string permission_remedy() {
    return "sysctl kernel.perf_event_paranoid=2 (user-only) or 1 (kernel+user), or grant "
           "CAP_PERFMON; inside a container, also allow perf_event_open in its seccomp profile";
}

std::string open_failed_reason(const os::OpenFailure& failure) {
    if (failure.error == ENOSYS)
        return fmt::format("perf_event_open is not available here ({})", describe_errno(ENOSYS));
    return fmt::format("perf_event_open({}) failed with {}", os::event_name(failure.event),
                       describe_errno(failure.error));
}

std::string member_unsupported_reason(os::Event event, int error) {
    return fmt::format(
        "{} is not supported by this PMU ({}): dropped from the group, its "
        "columns show —",
        os::event_name(event), describe_errno(error));
}

std::string llc_dropped_reason(double open_ratio, std::uint64_t running_ns) {
    if (running_ns == 0)
        return "LLC pair (cache-references, cache-misses) dropped: the full group never got "
               "PMU time at open; cache-miss shows —";
    return fmt::format(
        "LLC pair (cache-references, cache-misses) dropped: the full group was "
        "multiplexed at open (running/enabled {:.3f}, below {:.2f}); cache-miss "
        "shows —",
        open_ratio, 0.98);
}

std::string llc_dropped_remedy() {
    return "--perf-scaled keeps the full group with labelled (≈) estimates; freeing PMU "
           "counters (sysctl kernel.nmi_watchdog=0, no other perf session) may let it fit";
}

std::string never_scheduled_reason(std::uint64_t enabled_ns) {
    return fmt::format(
        "the PMU never scheduled the group during the open calibration (running "
        "0 ns of {} ns enabled): its counters are all in use",
        enabled_ns);
}

std::string never_scheduled_remedy() {
    return "free PMU counters: stop other perf sessions, sysctl kernel.nmi_watchdog=0";
}

std::string multiplexed_at_open_reason(double open_ratio) {
    return fmt::format(
        "the group is multiplexed (running/enabled {:.3f} at open): each pass is "
        "scaled by its own enabled/running and its cells are ≈ estimates",
        open_ratio);
}

std::string scaled_mode_reason() {
    return "--perf-scaled: the full group is kept even when the PMU multiplexes it; a pass that "
           "was rotated is scaled by its enabled/running and shown as ≈ (estimatedMetrics)";
}

std::string read_failed_reason(const std::string& what) {
    return fmt::format("the group opened but reading it failed ({})", what);
}

std::string scope_note(bool inherit) {
    if (inherit)
        return "--perf-inherit: counts this thread plus the threads and child processes it creates "
               "after the "
               "open, and the threads that existed before the open (a group on each, read around "
               "each pass)";
    return "counts the measuring thread only: threads or processes the body starts are not "
           "counted (--perf-inherit counts those created after the open)";
}

}  // namespace glint::engine::counting
