#include "engine/stats/headline.hpp"

#include <algorithm>
#include <cmath>

#include "engine/stats/summary.hpp"

namespace glint::engine {
namespace {

// The value at quantile q of sorted values (nearest rank).
double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return NAN;
    const auto i = static_cast<std::size_t>(std::floor(q * static_cast<double>(sorted.size() - 1)));
    return sorted[i];
}

}  // namespace

bool is_clean(double wall, double cpu, const HeadlineRule& rule) {
    if (!std::isfinite(wall) || !std::isfinite(cpu)) return false;
    return wall - cpu <= rule.tolerance_ns + rule.share * wall;
}

std::size_t count_clean(std::span<const double> wall, std::span<const double> cpu,
                        const HeadlineRule& rule) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < wall.size() && i < cpu.size(); ++i)
        n += is_clean(wall[i], cpu[i], rule);
    return n;
}

double grouped_median(std::span<const double> sorted, double quantum) {
    if (sorted.empty()) return NAN;
    const std::size_t n = sorted.size();
    const double v = sorted[n / 2];
    // The plain median, read off the sorted values (as median() computes it).
    const double plain = n % 2 == 1 ? v : sorted[n / 2 - 1] + (v - sorted[n / 2 - 1]) / 2;
    if (!(quantum > 0) || !std::isfinite(quantum)) return plain;
    const auto tied = std::equal_range(sorted.begin(), sorted.end(), v);
    const auto below = static_cast<double>(tied.first - sorted.begin());
    const auto count = static_cast<double>(tied.second - tied.first);
    if (count < 2) return plain;
    return v - quantum / 2 + (static_cast<double>(n) / 2 - below) / count * quantum;
}

double clock_quantum(std::span<const double> sorted, double step_ns) {
    double smallest = INFINITY;
    for (std::size_t k = 1; k < sorted.size(); ++k)
        if (sorted[k] > sorted[k - 1]) smallest = std::min(smallest, sorted[k] - sorted[k - 1]);
    return std::isfinite(smallest) ? std::max(step_ns, smallest) : step_ns;
}

bool is_split(std::vector<double> values, double step_ns) {
    const std::size_t n = values.size();
    const std::size_t least = std::max<std::size_t>(2, (n + 9) / 10);
    if (n < 2 * least) return false;
    std::sort(values.begin(), values.end());
    const double mid = median(values);
    const double quantum = clock_quantum(values, step_ns);
    for (std::size_t k = least; k + least <= n; ++k) {  // the gap below values[k]
        const double gap = values[k] - values[k - 1];
        if (!(gap > 0.05 * std::fabs(mid)) || !(gap > 2 * quantum)) continue;
        const std::span<const double> lower(values.data(), k), upper(values.data() + k, n - k);
        const double wider = std::max(median_abs_deviation(lower), median_abs_deviation(upper));
        if (gap > 4 * wider) return true;
    }
    return false;
}

double block_drift(std::span<const double> ordered, std::size_t blocks) {
    while (blocks >= 2 && ordered.size() / blocks < 4) --blocks;
    if (blocks < 2) return 0;
    const std::size_t size = ordered.size() / blocks;
    double lo = INFINITY, hi = -INFINITY;
    for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t end = b + 1 == blocks ? ordered.size() : (b + 1) * size;
        const double m = median(ordered.subspan(b * size, end - b * size));
        lo = std::min(lo, m);
        hi = std::max(hi, m);
    }
    return hi - lo;
}

Headline estimate_headline(std::span<const double> wall, std::span<const double> cpu,
                           const HeadlineRule& rule, const std::vector<bool>& slow_core,
                           std::span<const double> unit) {
    Headline h;
    const bool have_cpu =
        !cpu.empty() && cpu.size() == wall.size() &&
        std::any_of(cpu.begin(), cpu.end(), [](double c) { return std::isfinite(c); });
    std::vector<double> chosen(wall.begin(), wall.end());
    std::vector<std::size_t> chosen_at(wall.size());  // the samples the median is taken of
    for (std::size_t i = 0; i < chosen_at.size(); ++i) chosen_at[i] = i;
    if (have_cpu) {
        const bool probed = slow_core.size() == wall.size();
        std::vector<double> clean;
        std::vector<std::size_t> clean_at;
        std::size_t slow = 0;
        for (std::size_t i = 0; i < wall.size(); ++i) {
            if (!is_clean(wall[i], cpu[i], rule)) continue;
            if (probed && slow_core[i]) {
                ++slow;
                continue;
            }
            clean.push_back(wall[i]);
            clean_at.push_back(i);
        }
        if (probed) h.slow_core = slow;
        h.clean = clean.size();
        h.disturbed = wall.size() - clean.size();
        h.too_few_clean = clean.size() < rule.min_clean || 2 * clean.size() < wall.size();
        if (!h.too_few_clean) {
            chosen = std::move(clean);
            chosen_at = std::move(clean_at);
        }
        h.estimator = h.too_few_clean ? kEstimatorAllMedian : kEstimatorCleanMedian;
    }
    if (unit.size() == wall.size() && !unit.empty()) {
        std::vector<double> ratios;
        for (std::size_t i : chosen_at)
            if (unit[i] > 0 && std::isfinite(unit[i])) ratios.push_back(wall[i] / unit[i]);
        if (!ratios.empty()) h.per_unit = median(ratios);
    }
    if (chosen.empty()) {
        h.median = h.mad = h.spread = NAN;
        return h;
    }
    h.mad = median_abs_deviation(chosen);
    std::vector<double> sorted = chosen;
    std::sort(sorted.begin(), sorted.end());
    // No ± finer than the clock's quantum: a median between two of its steps is not resolved.
    const double quantum = clock_quantum(sorted, rule.step_ns);
    h.median = grouped_median(sorted, quantum);
    if (h.too_few_clean) {
        // The real spread of all samples: down to the least disturbed one (BenchmarkTools'
        // minimum), up to the 90th percentile.
        h.spread =
            std::max({h.mad, h.median - sorted.front(), quantile(sorted, 0.9) - h.median, quantum});
        return h;
    }
    h.spread = std::max({h.mad, block_drift(chosen, rule.blocks), quantum});
    h.split = is_split(chosen, rule.step_ns);
    if (h.split)
        h.spread = std::max({h.spread, h.median - sorted.front(), sorted.back() - h.median});
    return h;
}

}  // namespace glint::engine
