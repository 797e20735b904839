#include "engine/counting/batch_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/model/not_measured.hpp"
#include "engine/stats/summary.hpp"

namespace glint::engine::counting {
namespace {

// Two per-iteration values of an exact count agree when they differ by rounding alone.
bool differs(double x, double median) {
    return std::fabs(x - median) > 1e-9 * std::max(1.0, std::fabs(median));
}

MemberSpread spread_of(const std::vector<std::vector<double>>& values, std::size_t m) {
    std::vector<double> column;
    column.reserve(values.size());
    for (const auto& row : values) column.push_back(row[m]);
    MemberSpread s;
    s.median = median(column);
    s.mad = median_abs_deviation(column);
    s.min = *std::min_element(column.begin(), column.end());
    s.max = *std::max_element(column.begin(), column.end());
    return s;
}

// The cost of one bracket from the empty brackets with the outliers rejected; not measured
// when they cannot be read, were multiplexed, or too many disagree.
BracketCost robust_cost(const std::vector<GroupDelta>& empties, std::size_t size,
                        std::size_t& rejected) {
    rejected = 0;
    if (empties.empty()) return BracketCost{};
    std::vector<std::vector<double>> values;
    values.reserve(empties.size());
    for (const GroupDelta& d : empties) {
        if (!d.ok || d.size != size || d.running < d.enabled) return BracketCost{};
        values.emplace_back(d.counts.begin(), d.counts.begin() + static_cast<long>(size));
    }
    const std::vector<bool> out = outlier_brackets(values);
    rejected = static_cast<std::size_t>(std::count(out.begin(), out.end(), true));
    if (static_cast<double>(rejected) > kMaxRejectedShare * static_cast<double>(values.size()))
        return BracketCost{};
    BracketCost cost;
    cost.size = size;
    cost.samples = values.size() - rejected;
    const double n = static_cast<double>(cost.samples);
    for (std::size_t m = 0; m < size; ++m) {
        double sum = 0, squares = 0;
        for (std::size_t b = 0; b < values.size(); ++b)
            if (!out[b]) sum += values[b][m];
        const double mean = sum / n;
        for (std::size_t b = 0; b < values.size(); ++b)
            if (!out[b]) squares += (values[b][m] - mean) * (values[b][m] - mean);
        cost.per_bracket[m] = mean;
        cost.uncertainty[m] = cost.samples > 1 ? std::sqrt(squares / (n - 1)) / std::sqrt(n) : 0;
    }
    cost.measured = true;
    return cost;
}

// Why the sum is kept for this pass ("" when the brackets can be combined robustly).
std::string sum_reason(const PassTotals& totals, const BracketSeries& series, std::uint64_t batch) {
    if (!totals.ok) return "the pass failed";
    const Scaling scaling = pass_scaling(totals.enabled, totals.running);
    if (!scaling.measured) return "the pass was not measured";
    if (scaling.estimated) return "multiplexed: the whole pass is scaled by enabled/running";
    if (!series.kept || series.brackets() != totals.brackets || series.size != totals.size)
        return "its brackets were not kept (more than 262144)";
    std::uint64_t full = 0;
    for (std::size_t b = 0; b < series.brackets(); ++b) {
        if (series.running[b] < series.enabled[b])
            return "multiplexed: the whole pass is scaled by enabled/running";
        full += series.iterations[b] == batch;
    }
    if (full < kMinRobustBrackets) return "fewer than 32 full brackets";
    return "";
}

}  // namespace

void BracketSeries::reserve(std::uint64_t brackets) {
    if (brackets > kMaxKeptBrackets) {
        kept = false;
        return;
    }
    iterations.reserve(brackets);
    enabled.reserve(brackets);
    running.reserve(brackets);
}

void BracketSeries::add(const GroupDelta& delta, std::uint64_t n) {
    if (!kept) return;
    if (!delta.ok || (!iterations.empty() && delta.size != size) ||
        iterations.size() == iterations.capacity()) {
        kept = false;  // never allocates inside the pass
        return;
    }
    if (iterations.empty()) {
        size = delta.size;
        counts.reserve(iterations.capacity() * size);
    }
    counts.insert(counts.end(), delta.counts.begin(),
                  delta.counts.begin() + static_cast<long>(size));
    iterations.push_back(n);
    enabled.push_back(delta.enabled);
    running.push_back(delta.running);
}

std::vector<bool> outlier_brackets(const std::vector<std::vector<double>>& values) {
    std::vector<bool> out(values.size(), false);
    if (values.empty()) return out;
    for (std::size_t m = 0; m < values.front().size(); ++m) {
        const MemberSpread s = spread_of(values, m);
        for (std::size_t b = 0; b < values.size(); ++b) {
            const double x = values[b][m];
            out[b] =
                out[b] || (s.mad > 0 ? std::fabs(0.6745 * (x - s.median) / s.mad) > kOutlierScore
                                     : differs(x, s.median));
        }
    }
    return out;
}

CombinedPass combine_pass(const PassTotals& totals, const BracketSeries& series,
                          const std::vector<GroupDelta>& empties, const BracketCost& sum_cost,
                          std::uint64_t iterations, std::uint64_t batch) {
    CombinedPass c;
    c.per = per_iteration(totals, iterations, sum_cost);
    c.spread.brackets = totals.brackets;
    c.spread.reason = sum_reason(totals, series, batch);
    if (!c.spread.reason.empty()) return c;
    const std::size_t size = series.size;
    BracketCost cost = robust_cost(empties, size, c.spread.empty_rejected);
    if (!cost.measured) cost = sum_cost;
    const auto cost_of = [&](std::size_t m) {
        return cost.measured && m < cost.size ? cost.per_bracket[m] : 0.0;
    };
    std::vector<std::vector<double>> values(series.brackets(), std::vector<double>(size));
    for (std::size_t b = 0; b < series.brackets(); ++b)
        for (std::size_t m = 0; m < size; ++m)
            values[b][m] = (static_cast<double>(series.counts[b * size + m]) - cost_of(m)) /
                           static_cast<double>(std::max<std::uint64_t>(series.iterations[b], 1));
    for (std::size_t m = 0; m < size; ++m) c.spread.members.push_back(spread_of(values, m));
    const std::vector<bool> out = outlier_brackets(values);
    const auto rejected = static_cast<std::size_t>(std::count(out.begin(), out.end(), true));
    if (static_cast<double>(rejected) > kMaxRejectedShare * static_cast<double>(out.size())) {
        c.spread.reason = "no majority of brackets agreed (" + std::to_string(rejected) + " of " +
                          std::to_string(out.size()) + " outliers)";
        return c;
    }
    double kept = 0, n = 0;
    std::vector<double> sums(size, 0.0);
    for (std::size_t b = 0; b < out.size(); ++b) {
        if (out[b]) continue;
        kept += 1;
        n += static_cast<double>(series.iterations[b]);
        for (std::size_t m = 0; m < size; ++m)
            sums[m] += static_cast<double>(series.counts[b * size + m]);
    }
    if (n == 0) return c;
    c.spread.robust = true;
    c.spread.rejected = rejected;
    for (std::size_t m = 0; m < size; ++m) {
        const bool subtract = cost.measured && m < cost.size;
        const double noise = subtract ? kept * cost.uncertainty[m] / n : 0.0;
        const double value = (sums[m] - kept * cost_of(m)) / n;
        c.per.values[m] = noise > 0 && value < 3 * noise ? kNan : std::max(0.0, value);
    }
    return c;
}

Json spread_json(const CountSpread& spread, const std::vector<std::string>& names) {
    Json j = Json::object();
    j["combined"] = spread.robust ? "robust" : "sum";
    j["reason"] = spread.robust ? Json() : Json(spread.reason);
    j["brackets"] = static_cast<unsigned long>(spread.brackets);
    j["rejected"] = spread.robust ? Json(static_cast<unsigned long>(spread.rejected)) : Json();
    j["emptyRejected"] =
        spread.robust ? Json(static_cast<unsigned long>(spread.empty_rejected)) : Json();
    if (spread.members.empty()) {
        j["perIteration"] = Json();
        return j;
    }
    Json per = Json::object();
    for (std::size_t m = 0; m < spread.members.size() && m < names.size(); ++m) {
        const MemberSpread& s = spread.members[m];
        Json one = Json::object();
        one["median"] = s.median;
        one["mad"] = s.mad;
        one["min"] = s.min;
        one["max"] = s.max;
        per[names[m]] = std::move(one);
    }
    j["perIteration"] = std::move(per);
    return j;
}

}  // namespace glint::engine::counting
