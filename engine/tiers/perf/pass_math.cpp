#include "engine/tiers/perf/pass_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace glint::engine::perf {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double median_of(std::vector<double>& values) {  // reorders `values`
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace

GroupDelta delta_between(const os::GroupReading& before, const os::GroupReading& after) {
    GroupDelta d;
    if (!before.ok || !after.ok || before.size != after.size) return d;
    if (after.enabled < before.enabled || after.running < before.running) return d;
    d.size = after.size;
    d.enabled = after.enabled - before.enabled;
    d.running = after.running - before.running;
    for (std::size_t i = 0; i < d.size; ++i) {
        if (after.values[i] < before.values[i]) return GroupDelta{};
        d.counts[i] = after.values[i] - before.values[i];
    }
    d.ok = true;
    return d;
}

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
    if (enabled == 0) return kNaN;
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

BracketCost median_cost(const std::vector<GroupDelta>& empty_brackets) {
    BracketCost cost;
    if (empty_brackets.empty()) return cost;
    const std::size_t size = empty_brackets.front().size;
    std::vector<const GroupDelta*> scheduled;
    for (const auto& d : empty_brackets) {
        if (!d.ok || d.size != size) return cost;
        if (d.running > 0) scheduled.push_back(&d);
    }
    if (scheduled.empty()) return cost;
    cost.size = size;
    cost.samples = scheduled.size();
    std::vector<double> column(scheduled.size());
    for (std::size_t member = 0; member < size; ++member) {
        for (std::size_t i = 0; i < scheduled.size(); ++i) {
            const GroupDelta& d = *scheduled[i];
            const double scale = d.running < d.enabled ? static_cast<double>(d.enabled) /
                                                             static_cast<double>(d.running)
                                                       : 1.0;
            column[i] = static_cast<double>(d.counts[member]) * scale;
        }
        const double median = median_of(column);
        for (double& x : column) x = std::abs(x - median);
        const double mad = median_of(column);
        cost.per_bracket[member] = median;
        const double sigma = 1.4826 * mad;
        cost.uncertainty[member] =
            sigma + 1.2533 * sigma / std::sqrt(static_cast<double>(column.size()));
    }
    cost.measured = true;
    return cost;
}

PerIteration per_iteration(const PassTotals& totals, std::uint64_t iterations,
                           const BracketCost& cost) {
    PerIteration out;
    out.size = totals.size;
    out.values.fill(kNaN);
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
        out.values[i] = noise > 0 && value < 3 * noise ? kNaN : std::max(0.0, value);
    }
    return out;
}

double ratio_of(double numerator, double denominator) {
    if (std::isnan(numerator) || std::isnan(denominator) || denominator == 0) return kNaN;
    return numerator / denominator;
}

}  // namespace glint::engine::perf
