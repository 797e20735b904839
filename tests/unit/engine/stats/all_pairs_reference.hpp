// The straightforward reference for the shift statistics (tests only, never the product): every
// difference b[j] - a[i] materialised and sorted, and Moses' rank as shift.hpp states it.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "engine/stats/shift.hpp"

namespace glint::engine::testing {

inline std::vector<double> sorted_differences(const std::vector<double>& a,
                                              const std::vector<double>& b) {
    std::vector<double> d;
    d.reserve(a.size() * b.size());
    for (double x : a)
        for (double y : b) d.push_back(y - x);
    std::sort(d.begin(), d.end());
    return d;
}

// The rank k of Moses' lower bound (1-based): the largest c + 1 with P(U <= c) <= tail from the
// exact distribution up to kExactRankLimit, else floor(mn/2 - z sd).
inline std::optional<std::size_t> reference_rank(std::size_t m, std::size_t n, double level) {
    const double tail = (1 - level) / 2;
    if (m <= kExactRankLimit && n <= kExactRankLimit) {
        const auto cdf = rank_sum_cdf(std::min(m, n), std::max(m, n));
        std::optional<std::size_t> k;
        for (std::size_t u = 0; u < cdf.size() && cdf[u] <= tail * (1 + 1e-9); ++u) k = u + 1;
        return k;
    }
    const double mn = static_cast<double>(m * n);
    const double c = std::floor(mn / 2 - normal_quantile(1 - tail) *
                                             std::sqrt(mn * static_cast<double>(m + n + 1) / 12));
    if (c < 1) return std::nullopt;
    return static_cast<std::size_t>(c);
}

}  // namespace glint::engine::testing
