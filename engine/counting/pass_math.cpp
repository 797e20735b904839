#include "engine/counting/pass_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/model/not_measured.hpp"
#include "engine/stats/summary.hpp"

namespace glint::engine::counting {
namespace {}  // namespace

void PassTotals::add(const GroupDelta& delta) {
    ++brackets;
    if (!delta.ok || (brackets > 1 && delta.size != size)) {
        ok = false;
        return;
    }
    size = delta.size;
    enabled += delta.enabled;
    running += delta.running;
    for (std::size_t i = 0; i < size; ++i) counts[i] += delta.counts[i];
}

double running_ratio(std::uint64_t enabled, std::uint64_t running) {
    if (enabled == 0) return kNan;
    return static_cast<double>(running) / static_cast<double>(enabled);
}

Scaling pass_scaling(std::uint64_t enabled, std::uint64_t running) {
    Scaling s;
    if (enabled == 0 || running == 0) return s;
    if (running >= enabled) {
        s.measured = true;
        return s;
    }
    if (running < kMinScaledRunningNs) return s;
    s.measured = true;
    s.estimated = true;
    s.factor = static_cast<double>(enabled) / static_cast<double>(running);
    return s;
}

namespace {

// The scaled count of `member` in each scheduled delta; false when a delta is unusable.
bool scaled_columns(const std::vector<GroupDelta>& deltas, std::size_t& size,
                    std::vector<std::vector<double>>& columns) {
    if (deltas.empty()) return false;
    size = deltas.front().size;
    columns.assign(size, {});
    for (const auto& d : deltas) {
        if (!d.ok || d.size != size) return false;
        if (d.running == 0) continue;
        const double scale = d.running < d.enabled
                                 ? static_cast<double>(d.enabled) / static_cast<double>(d.running)
                                 : 1.0;
        for (std::size_t m = 0; m < size; ++m)
            columns[m].push_back(static_cast<double>(d.counts[m]) * scale);
    }
    return size > 0 && !columns[0].empty();
}

}  // namespace

BracketCost median_cost(const std::vector<GroupDelta>& empty_brackets) {
    BracketCost cost;
    std::vector<std::vector<double>> columns;
    if (!scaled_columns(empty_brackets, cost.size, columns)) return BracketCost{};
    cost.samples = columns[0].size();
    const double root_n = std::sqrt(static_cast<double>(cost.samples));
    for (std::size_t m = 0; m < cost.size; ++m) {
        cost.per_bracket[m] = median(columns[m]);
        cost.uncertainty[m] = 1.2533 * 1.4826 * median_abs_deviation(columns[m]) / root_n;
    }
    cost.measured = true;
    return cost;
}

BracketCost mean_cost(const std::vector<GroupDelta>& empty_brackets) {
    BracketCost cost;
    std::vector<std::vector<double>> columns;
    if (!scaled_columns(empty_brackets, cost.size, columns)) return BracketCost{};
    cost.samples = columns[0].size();
    const double n = static_cast<double>(cost.samples);
    for (std::size_t m = 0; m < cost.size; ++m) {
        double sum = 0;
        for (double x : columns[m]) sum += x;
        const double mean = sum / n;
        double squares = 0;
        for (double x : columns[m]) squares += (x - mean) * (x - mean);
        const double stdev = cost.samples > 1 ? std::sqrt(squares / (n - 1)) : 0.0;
        cost.per_bracket[m] = mean;
        cost.uncertainty[m] = stdev / std::sqrt(n);
    }
    cost.measured = true;
    return cost;
}

PerIteration per_iteration(const PassTotals& totals, std::uint64_t iterations,
                           const BracketCost& cost) {
    PerIteration out;
    out.size = totals.size;
    out.values.fill(kNan);
    const Scaling scaling = pass_scaling(totals.enabled, totals.running);
    if (!totals.ok || iterations == 0 || !scaling.measured) return out;
    out.estimated = scaling.estimated;
    const double n = static_cast<double>(iterations);
    const double brackets = static_cast<double>(totals.brackets);
    for (std::size_t i = 0; i < totals.size; ++i) {
        const double counted = static_cast<double>(totals.counts[i]) * scaling.factor;
        const bool subtract = cost.measured && i < cost.size;
        const double apparatus = subtract ? brackets * cost.per_bracket[i] : 0.0;
        const double noise = subtract ? brackets * cost.uncertainty[i] / n : 0.0;
        const double value = (counted - apparatus) / n;
        out.values[i] = noise > 0 && value < 3 * noise ? kNan : std::max(0.0, value);
    }
    return out;
}

double ratio_of(double numerator, double denominator) {
    if (std::isnan(numerator) || std::isnan(denominator) || denominator == 0) return kNan;
    return numerator / denominator;
}

}  // namespace glint::engine::counting
