#include "engine/stability/remedies.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace glint::engine {
namespace {

bool has(const Row& row, const char* code) {
    if (!row.stability) return false;
    const auto& u = row.stability->unstable;
    return std::find(u.begin(), u.end(), code) != u.end();
}

bool noisy(const Row& row) {
    for (const char* code : {"cpu-time", "disturbed", "split", "spread", "migrated", "preempted"})
        if (has(row, code)) return true;
    return false;
}

}  // namespace

RemedyContext remedy_context(const os::EnvironmentFacts* facts, double min_time_ms, double timer_step_ns) {
    RemedyContext done;
    done.min_time_ms = min_time_ms;
    done.timer_step_ns = timer_step_ns;
    if (!facts || facts->cpus.size() != 1) return done;
    done.pinned = true;
    const auto& isolated = facts->isolated;
    done.cpu_isolated = isolated && std::find(isolated->begin(), isolated->end(), facts->cpus.front()) != isolated->end();
    return done;
}

std::string unstable_remedies(const std::vector<Row>& rows, const RemedyContext& done,
                              double min_timer_steps) {
    bool noise = false, waited = false, stolen = false, too_short = false;
    for (const Row& row : rows) {
        noise = noise || noisy(row);
        waited = waited || has(row, "run-delay");
        stolen = stolen || has(row, "steal");
        too_short = too_short || has(row, "timer-resolution");
    }
    // The doubling stops at --bench-min-time, and the samples after it can be shorter than the
    // one that stopped it (cold caches, a slow first sample): within kMargin of what the timer
    // resolves, samples come out too short whatever the case's iterations.
    constexpr double kMargin = 4;
    double resolved_ms = kMargin * min_timer_steps * done.timer_step_ns / 1e6;
    if (resolved_ms > 0) {  // two significant digits, rounded up: the value suggested suffices
        const double unit = std::pow(10.0, std::floor(std::log10(resolved_ms)) - 1);
        resolved_ms = std::ceil(resolved_ms / unit - 1e-9) * unit;
    }
    const bool min_time_short = too_short && done.min_time_ms < resolved_ms * (1 - 1e-9);
    std::vector<std::string> parts;
    if (noise)
        parts.push_back(!done.pinned         ? "try --pin, a quieter machine"
                        : !done.cpu_isolated ? "pinned already: a quieter machine, or an isolated CPU (isolcpus)"
                                             : "pinned to an isolated CPU already: a quieter machine");
    if (waited)
        parts.push_back(!done.pinned ? "run-delay: another task wanted this CPU: --pin to a quiet CPU, or stop it"
                        : !done.cpu_isolated
                            ? "run-delay: another task wanted the pinned CPU: stop it, or isolate that CPU (isolcpus)"
                            : "run-delay: another task wanted the pinned CPU: stop it");
    if (stolen) parts.push_back("steal: another guest on the host: a dedicated/quiet VM");
    if (min_time_short)
        parts.push_back(fmt::format("--bench-min-time={:g} or more (a sample needs {:g} timer steps)", resolved_ms, min_timer_steps));
    else if (too_short)
        parts.push_back("more iterations per sample (glint::iterations)");
    std::string text;
    for (const auto& p : parts) text += (text.empty() ? "" : "; ") + p;
    return text;
}

}  // namespace glint::engine
