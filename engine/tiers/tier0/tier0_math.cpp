#include "engine/tiers/tier0/tier0_math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/model/not_measured.hpp"
#include "engine/stats/summary.hpp"

namespace glint::engine::tier0 {
namespace {

std::size_t index(ProcessCounter c) { return static_cast<std::size_t>(c); }

}  // namespace

Tier0Delta snapshot_delta(const os::ProcessSnapshot& before, const os::ProcessSnapshot& after) {
    Tier0Delta d;
    for (std::size_t i = 0; i < kProcessCounters; ++i) {
        if (!before.present[i] || !after.present[i] || after.values[i] < before.values[i]) continue;
        d.values[i] = static_cast<double>(after.values[i] - before.values[i]);
        d.present[i] = true;
    }
    auto remove_own = [&](ProcessCounter c, std::uint64_t own) {
        const std::size_t i = index(c);
        if (d.present[i]) d.values[i] = std::max(0.0, d.values[i] - static_cast<double>(own));
    };
    remove_own(ProcessCounter::syscr, before.own_reads);
    remove_own(ProcessCounter::rchar, before.own_bytes);
    return d;
}

void Tier0Totals::add(const Tier0Delta& delta) {
    if (brackets == 0) {
        sum = delta;
    } else {
        for (std::size_t i = 0; i < kProcessCounters; ++i) {
            sum.present[i] = sum.present[i] && delta.present[i];
            sum.values[i] += delta.values[i];
        }
    }
    ++brackets;
}

Tier0Delta median_cost(const std::vector<Tier0Delta>& empty_brackets) {
    Tier0Delta cost;
    if (empty_brackets.empty()) return cost;
    for (std::size_t i = 0; i < kProcessCounters; ++i) {
        std::vector<double> column;
        for (const auto& d : empty_brackets) {
            if (!d.present[i]) break;
            column.push_back(d.values[i]);
        }
        if (column.size() != empty_brackets.size()) continue;
        cost.values[i] = median(column);
        cost.present[i] = true;
    }
    return cost;
}

std::array<double, kProcessCounters> per_iteration(const Tier0Totals& totals,
                                                   std::uint64_t iterations,
                                                   const Tier0Delta& cost) {
    std::array<double, kProcessCounters> out;
    out.fill(kNan);
    if (iterations == 0 || totals.brackets == 0) return out;
    const double brackets = static_cast<double>(totals.brackets);
    for (std::size_t i = 0; i < kProcessCounters; ++i) {
        if (!totals.sum.present[i] || !cost.present[i]) continue;
        const double net = totals.sum.values[i] - brackets * cost.values[i];
        out[i] = std::max(0.0, net) / static_cast<double>(iterations);
    }
    return out;
}

double cache_hit_percent(double rchar, double read_bytes) {
    if (std::isnan(rchar) || std::isnan(read_bytes) || rchar < 1.0) return kNan;
    return std::clamp(100.0 * (1.0 - read_bytes / rchar), 0.0, 100.0);
}

}  // namespace glint::engine::tier0
