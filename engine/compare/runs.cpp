#include "engine/compare/runs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/stats/shift.hpp"
#include "engine/stats/summary.hpp"
#include "engine/timing/core_probe.hpp"

namespace glint::engine {
namespace {

constexpr double kFarMads = 3.0;      // a run this many scaled MADs above its side's median
constexpr double kMadScale = 1.4826;  // MAD to a normal standard deviation

constexpr double kMinCpuWall = 0.9;        // as the cpu-time mark (stability/verdict.hpp)
constexpr double kMaxSlowCoreShare = 0.5;  // over half the samples on a slowed core

// Why the run's own measurement says it was disturbed; "" when it does not.
std::string disturbance(const RunEvidence& run) {
    std::string out;
    for (const auto& r : run.unstable)
        if (disturbing_reason(r)) out += (out.empty() ? "" : ", ") + r;
    char text[64];
    if (run.cpu_wall < kMinCpuWall && (out.find("cpu-time") == std::string::npos)) {
        std::snprintf(text, sizeof text, "CPU/wall %.2f", run.cpu_wall);
        out += (out.empty() ? "" : ", ") + std::string(text);
    }
    if (run.slow_core_share > kMaxSlowCoreShare) {
        std::snprintf(text, sizeof text, "%.0f%% of samples on a slowed core",
                      run.slow_core_share * 100);
        out += (out.empty() ? "" : ", ") + std::string(text);
    }
    return out;
}

std::vector<double> logs(const std::vector<double>& values) {
    std::vector<double> out;
    out.reserve(values.size());
    for (double v : values) out.push_back(std::log(v));
    return out;
}

}  // namespace

bool disturbing_reason(const std::string& reason) {
    return reason != "migrated" && reason != "timer-resolution";
}

KeptRuns keep_runs(const std::vector<RunEvidence>& runs, bool base, double threshold,
                   const std::vector<std::string>& off_core) {
    std::vector<std::string> why_out(runs.size());
    std::vector<std::size_t> on_core;  // the runs the core screen kept
    std::vector<double> medians;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (i < off_core.size()) why_out[i] = off_core[i];
        if (!why_out[i].empty()) continue;
        on_core.push_back(i);
        medians.push_back(runs[i].median_ns);
    }
    const std::size_t cap = on_core.size() >= 4 ? on_core.size() / 4 : 0;
    std::vector<std::pair<std::size_t, std::string>> candidates;  // index, why
    if (cap > 0) {
        const double mid = median(medians);
        std::vector<double> deviations;
        for (double m : medians) deviations.push_back(std::fabs(m - mid));
        const double far = mid * (1 + threshold) + kFarMads * kMadScale * median(deviations);
        for (std::size_t i : on_core) {
            if (std::string why = disturbance(runs[i]); !why.empty()) {
                candidates.emplace_back(i, why);
            } else if (runs[i].median_ns > far) {
                char text[96];
                std::snprintf(text, sizeof text, "far slower than the side's other runs (%+.0f%%)",
                              (runs[i].median_ns / mid - 1) * 100);
                candidates.emplace_back(i, text);
            }
        }
        // The slowest first: a disturbance slows a run; the cap keeps three quarters.
        std::stable_sort(candidates.begin(), candidates.end(), [&](const auto& x, const auto& y) {
            return runs[x.first].median_ns > runs[y.first].median_ns;
        });
        if (candidates.size() > cap) candidates.resize(cap);
    }
    for (auto& [i, why] : candidates) why_out[i] = std::move(why);
    KeptRuns out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (why_out[i].empty()) out.medians.push_back(runs[i].median_ns);
        else out.dropped.push_back({base, i + 1, std::move(why_out[i])});
    }
    return out;
}

CoreScreen screen_core_speed(const std::vector<RunEvidence>& base,
                             const std::vector<RunEvidence>& next) {
    CoreScreen out{std::vector<std::string>(base.size()), std::vector<std::string>(next.size())};
    double fastest = INFINITY;
    for (const auto* side : {&base, &next})
        for (const RunEvidence& run : *side) {
            if (!(run.core_step_ns > 0)) return out;  // not probed: no core speed to compare
            fastest = std::min(fastest, run.core_step_ns);
        }
    const auto slower = [&](const RunEvidence& run) {
        return run.core_step_ns > kSlowCoreFactor * fastest;
    };
    const auto on_core = [&](const std::vector<RunEvidence>& side) {
        return static_cast<std::size_t>(
            std::count_if(side.begin(), side.end(), [&](const auto& r) { return !slower(r); }));
    };
    if (on_core(base) < kMinSameCoreRuns || on_core(next) < kMinSameCoreRuns) return out;
    const auto mark = [&](const std::vector<RunEvidence>& side, std::vector<std::string>& why) {
        for (std::size_t i = 0; i < side.size(); ++i)
            if (slower(side[i])) {
                char text[96];
                std::snprintf(text, sizeof text, "core %.0f%% slower than the fastest run's",
                              (side[i].core_step_ns / fastest - 1) * 100);
                why[i] = text;
            }
    };
    mark(base, out.base);
    mark(next, out.next);
    return out;
}

std::optional<RunsInterval> runs_interval(const std::vector<double>& a,
                                          const std::vector<double>& b, double level) {
    if (a.empty() || b.empty()) return std::nullopt;
    const std::vector<double> la = logs(a), lb = logs(b);
    RunsInterval out;
    const ShiftEstimate estimate = estimate_shift(la, lb, level);
    out.ratio = std::exp(estimate.shift);
    if (const auto& at_level = estimate.interval) {
        out.low = std::exp(at_level->low);
        out.high = std::exp(at_level->high);
        out.coverage = at_level->coverage;
        return out;
    }
    // Too few runs for `level`: the widest rank interval (every ratio) and its coverage,
    // 1 - 2 / C(m + n, m) (3 against 3: 90%).
    const auto [alo, ahi] = std::minmax_element(a.begin(), a.end());
    const auto [blo, bhi] = std::minmax_element(b.begin(), b.end());
    out.low = *blo / *ahi;
    out.high = *bhi / *alo;
    out.coverage =
        1 - 2 * rank_sum_cdf(std::min(a.size(), b.size()), std::max(a.size(), b.size())).front();
    return out;
}

}  // namespace glint::engine
