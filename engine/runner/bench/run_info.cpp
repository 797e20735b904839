#include "engine/runner/bench/run_info.hpp"

#include <fmt/format.h>
#include <glint/version.hpp>

#include <cmath>
#include <set>

#include "arch/arch.hpp"
#include "engine/capabilities/capabilities.hpp"
#include "engine/registry/registry.hpp"
#include "engine/timing/clock.hpp"
#include "os/host.hpp"

namespace glint::engine {
namespace {

std::string compiler() {
#if defined(__clang__)
    return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
    return std::string("g++ ") + __VERSION__;
#else
    return "unknown";
#endif
}

constexpr bool kLibraryOptimized =
#if defined(__OPTIMIZE__)
    true;
#else
    false;
#endif

std::string files_list(const std::set<std::string>& files) {
    std::string out;
    for (const auto& f : files) out += (out.empty() ? "" : ", ") + f;
    return out;
}

Json string_array(const std::vector<std::string>& items) {
    Json a = Json::array();
    for (const auto& i : items) a.push_back(i);
    return a;
}

// The thread CPU clock read once per batched sample (engine/timing/protocol.hpp), its cost.
std::string thread_clock_note(const ClockProperties& clock) {
    if (!std::isfinite(clock.thread_cpu_read_ns))
        return " · no thread CPU clock (cpu-time unchecked)";
    return fmt::format(
        " · thread CPU clock read {:.0f}ns, between samples (iter_batched: around each window and "
        "its setup; "
        "per-call: around each call)",
        clock.thread_cpu_read_ns);
}

}  // namespace

std::vector<std::string> header_lines(const Measuring& measuring,
                                      const std::vector<std::string>& notes) {
    std::vector<std::string> lines;
    const auto host = os::host_facts();
    const std::string os_kernel = host.kernel.empty() ? host.os : host.os + " " + host.kernel;
    lines.push_back(fmt::format("glint {} · {} · {} CPUs · {} · {}", GLINT_VERSION_STRING,
                                host.cpu_model.empty() ? arch::native::kName : host.cpu_model,
                                host.cpus, os_kernel, compiler()));
    const auto& clock = clock_properties();
    lines.push_back(fmt::format("timer: steady_clock · step {:.0f}ns · read {:.1f}ns{}",
                                clock.resolution_ns, clock.read_cost_ns, thread_clock_note(clock)));
    if (clock.ticks_usable) {
        lines.push_back(fmt::format(
            "per-call samples: {} at {:.3f} GHz ({}), its {:.1f}ns bracket subtracted",
            clock.ticks_name, 1.0 / clock.ns_per_tick, clock.ticks_why, clock.tick_bracket_ns));
    } else {
        lines.push_back(fmt::format(
            "per-call samples: steady_clock, its {:.1f}ns bracket subtracted ({} not used: {})",
            clock.bracket_ns, clock.ticks_name, clock.ticks_why));
    }
    lines.push_back(fmt::format(
        "protocol: iterations double until one sample takes ≥ {}ms, then 32 samples; "
        "median (of the samples that kept the CPU, docs/load.md) ±spread, min, max per iteration",
        measuring.min_time_ms));
    if (measuring.repeat > 1)
        lines.back() += fmt::format(
            "; every case {} times, interleaved: the median is the median of the "
            "repetitions' medians",
            measuring.repeat);
    std::set<std::string> unoptimized, asserting;
    for (const auto& r : registrations()) {
        if (!r.flags.optimized) unoptimized.insert(r.file);
        if (r.flags.assertions) asserting.insert(r.file);
    }
    if (!kLibraryOptimized) unoptimized.insert("the glint library");
    if (!unoptimized.empty())
        lines.push_back(
            "warning: built without optimization: " + files_list(unoptimized) +
            " — timings are not representative; build with -O2 (CMAKE_BUILD_TYPE=Release)");
    if (!asserting.empty())
        lines.push_back("warning: assertions enabled (NDEBUG not defined): " +
                        files_list(asserting) + " — real numbers need a release build");
    for (const auto& n : notes) lines.push_back(n);
    return lines;
}

Json run_meta(const Json& knobs, const TierSet& tiers, const std::vector<Status>& capabilities) {
    const auto host = os::host_facts();
    Json meta = Json::object();
    meta["glint"] = GLINT_VERSION_STRING;
    meta["host"] = host.hostname;
    meta["os"] = host.os;
    meta["kernel"] = host.kernel;
    meta["cpu"] = host.cpu_model;
    meta["cpus"] = host.cpus;
    meta["arch"] = arch::native::kName;
    meta["compiler"] = compiler();
    bool cases_optimized = true, assertions = false;
    for (const auto& r : registrations()) {
        cases_optimized = cases_optimized && r.flags.optimized;
        assertions = assertions || r.flags.assertions;
    }
    meta["build"]["libraryOptimized"] = kLibraryOptimized;
    meta["build"]["casesOptimized"] = cases_optimized;
    meta["build"]["assertions"] = assertions;
    const auto& clock = clock_properties();
    meta["timer"]["clock"] = "steady_clock";
    meta["timer"]["resolutionNs"] = clock.resolution_ns;
    meta["timer"]["readCostNs"] = clock.read_cost_ns;
    meta["timer"]["perCallClock"] = clock.ticks_usable ? clock.ticks_name : "steady_clock";
    meta["timer"]["perCallBracketNs"] =
        clock.ticks_usable ? clock.tick_bracket_ns : clock.bracket_ns;
    meta["timer"]["ticksPerNs"] = clock.ticks_usable ? Json(1.0 / clock.ns_per_tick) : Json{};
    meta["timer"]["threadCpuReadNs"] =
        std::isfinite(clock.thread_cpu_read_ns) ? Json(clock.thread_cpu_read_ns) : Json{};
    meta["knobs"] = knobs;
    meta["provenance"] = string_array(provenance_lines());
    meta["tiers"] = tiers.meta();
    meta["statuses"] = capabilities_json(tiers.statuses());
    meta["capabilities"] = capabilities_json(capabilities);
    return meta;
}

}  // namespace glint::engine
