#include "engine/stability/remedies.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "engine/stability/verdict.hpp"

namespace glint::engine {
namespace {

bool is_noise(std::string_view reason) {
    for (const char* code : {"cpu-time", "disturbed", "split", "spread", "migrated", "preempted"})
        if (reason == code) return true;
    return false;
}

// The --bench-min-time at which samples resolve (ms, two significant digits rounded up, so
// that the value suggested suffices); 0 when the timer's step is unknown. The doubling stops
// at --bench-min-time, and the samples after it can be shorter than the one that stopped it
// (cold caches, a slow first sample): within kMargin of what the timer resolves, samples come
// out too short whatever the case's iterations.
double resolving_min_time_ms(const RemedyContext& done, double min_timer_steps) {
    constexpr double kMargin = 4;
    const double ms = kMargin * min_timer_steps * done.timer_step_ns / 1e6;
    if (ms <= 0) return 0;
    const double unit = std::pow(10.0, std::floor(std::log10(ms)) - 1);
    return std::ceil(ms / unit - 1e-9) * unit;
}

}  // namespace

RemedyContext remedy_context(const os::EnvironmentFacts* facts, double min_time_ms,
                             double timer_step_ns) {
    RemedyContext done;
    done.min_time_ms = min_time_ms;
    done.timer_step_ns = timer_step_ns;
    if (!facts || facts->cpus.size() != 1) return done;
    done.pinned = true;
    const auto& isolated = facts->isolated;
    done.cpu_isolated = isolated && std::find(isolated->begin(), isolated->end(),
                                              facts->cpus.front()) != isolated->end();
    return done;
}

std::string reason_remedy(std::string_view reason, const RemedyContext& done,
                          double min_timer_steps) {
    if (is_noise(reason)) {
        if (done.cpu_isolated) return "pinned to an isolated CPU already: a quieter machine";
        if (done.pinned) return "pinned already: a quieter machine, or an isolated CPU (isolcpus)";
        if (reason == "migrated") return "try --pin";
        if (reason == "preempted") return "try --pin to a quiet CPU";
        return "try --pin, a quieter machine";
    }
    if (reason == "run-delay") {
        if (done.cpu_isolated) return "another task wanted the pinned CPU: stop it";
        if (done.pinned)
            return "another task wanted the pinned CPU: stop it, or isolate that CPU (isolcpus)";
        return "try --pin to a quiet CPU, or stop the task that wants it";
    }
    if (reason == "steal") return "try a dedicated or quiet VM (another guest shares the host)";
    if (reason == "timer-resolution") {
        const double resolving_ms = resolving_min_time_ms(done, min_timer_steps);
        if (done.min_time_ms < resolving_ms * (1 - 1e-9))
            return fmt::format(
                "try --bench-min-time={:g} or more (a sample needs {:g} timer steps)", resolving_ms,
                min_timer_steps);
        return "try more iterations per sample (glint::iterations)";
    }
    const auto& known = unstable_reason_codes();
    if (std::find(known.begin(), known.end(), reason) != known.end())
        return "try --pin, a quieter machine";
    return "";
}

}  // namespace glint::engine
