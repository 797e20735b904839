#include "engine/environment/core_speed.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "engine/stats/summary.hpp"
#include "engine/timing/clock.hpp"
#include "engine/timing/core_probe.hpp"

namespace glint::engine {
namespace {

constexpr std::uint64_t kStepsPerChunk = 16384;  // ~5 µs at one step a cycle near 3.5 GHz

// The q-quantile of sorted values, interpolated between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto low = static_cast<std::size_t>(at);
    if (low + 1 >= sorted.size()) return sorted.back();
    return sorted[low] + (at - static_cast<double>(low)) * (sorted[low + 1] - sorted[low]);
}

Json speed_json(const std::optional<CoreSpeed>& s) {
    if (!s) return Json();
    Json j = Json::object();
    j["chunks"] = s->chunks;
    j["interruptedChunks"] = s->interrupted;
    j["fastestNsPerStep"] = s->fastest_ns;
    j["medianNsPerStep"] = s->median_ns;
    j["p90NsPerStep"] = s->p90_ns;
    j["slowShare"] = s->slow_share;
    return j;
}

}  // namespace

std::vector<double> probe_core_speed(std::chrono::nanoseconds span) {
    std::vector<double> out;
    const std::int64_t begin = now_ns();
    while (now_ns() - begin < span.count()) out.push_back(probe_step_ns(kStepsPerChunk));
    return out;
}

std::optional<CoreSpeed> judge_core_speed(std::span<const double> step_ns) {
    std::vector<double> positive;
    for (double v : step_ns)
        if (v > 0) positive.push_back(v);
    if (positive.empty()) return std::nullopt;
    CoreSpeed s;
    s.fastest_ns = *std::min_element(positive.begin(), positive.end());
    std::vector<double> judged;
    std::size_t slow = 0;
    for (double v : positive) {
        const ProbeReading reading = read_probe(v, s.fastest_ns);
        if (reading == ProbeReading::interrupted) {
            ++s.interrupted;
            continue;
        }
        slow += reading == ProbeReading::slowed;
        judged.push_back(v);
    }
    std::sort(judged.begin(), judged.end());
    s.chunks = judged.size();
    s.median_ns = median(judged);
    s.p90_ns = quantile(judged, 0.9);
    s.slow_share = static_cast<double>(slow) / static_cast<double>(judged.size());
    return s;
}

std::optional<EnvironmentWarning> check_core_speed(const CoreSpeed& s) {
    if (s.chunks == 0 || s.slow_share < kSlowShareWarning) return std::nullopt;
    return EnvironmentWarning{
        "core-speed",
        fmt::format(
            "the core's speed changed: {:.0f}% of {} probes of a dependent add at the run's "
            "start and end ran over 10% slower than the fastest ({:.3g} ns; median {:.3g}, "
            "90th percentile {:.3g}: {:.2f}x), unseen by the CPU clock: samples beside a "
            "slow probe are left out of headlines, but a case slowed throughout reads "
            "slow, whatever its ±",
            100 * s.slow_share, s.chunks, s.fastest_ns, s.median_ns, s.p90_ns,
            s.p90_ns / s.fastest_ns),
        "a core of steady speed: governor performance and boost off, an idle SMT sibling, "
        "dedicated vCPUs; else --bench-repeat to spread the ± over repetitions"};
}

Json core_speed_json(const std::optional<CoreSpeed>& all, const std::optional<CoreSpeed>& start,
                     const std::optional<CoreSpeed>& end) {
    Json j = speed_json(all);
    if (j.is_null()) return j;
    j["start"] = speed_json(start);
    j["end"] = speed_json(end);
    return j;
}

}  // namespace glint::engine
