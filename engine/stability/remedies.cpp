#include "engine/stability/remedies.hpp"

#include <algorithm>

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

// A batched row whose samples already last about --bench-min-time (the doubling reached it):
// more time per sample means a longer --bench-min-time, not more pinned iterations.
bool samples_reach_min_time(const Row& row, double min_time_ms) {
    if (!row.timing) return false;
    const double sample_ns = row.timing->median_ns * static_cast<double>(row.timing->iterations_per_sample);
    return sample_ns >= 0.5 * min_time_ms * 1e6;
}

}  // namespace

RemedyContext remedy_context(const os::EnvironmentFacts* facts, double min_time_ms) {
    RemedyContext done;
    done.min_time_ms = min_time_ms;
    if (!facts || facts->cpus.size() != 1) return done;
    done.pinned = true;
    const auto& isolated = facts->isolated;
    done.cpu_isolated = isolated && std::find(isolated->begin(), isolated->end(), facts->cpus.front()) != isolated->end();
    return done;
}

std::string unstable_remedies(const std::vector<Row>& rows, const RemedyContext& done) {
    bool noise = false, waited = false, stolen = false, short_by_time = false, short_by_count = false;
    for (const Row& row : rows) {
        noise = noise || noisy(row);
        waited = waited || has(row, "run-delay");
        stolen = stolen || has(row, "steal");
        if (has(row, "timer-resolution"))
            (samples_reach_min_time(row, done.min_time_ms) ? short_by_time : short_by_count) = true;
    }
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
    if (short_by_time)
        parts.push_back(fmt::format("longer samples: --bench-min-time above {:g}", done.min_time_ms));
    if (short_by_count) parts.push_back("more iterations per sample (glint::iterations)");
    std::string text;
    for (const auto& p : parts) text += (text.empty() ? "" : "; ") + p;
    return text;
}

}  // namespace glint::engine
