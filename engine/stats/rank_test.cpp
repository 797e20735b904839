#include "engine/stats/rank_test.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace glint::engine {

double mann_whitney_p(std::span<const double> a, std::span<const double> b) {
    const double n1 = static_cast<double>(a.size());
    const double n2 = static_cast<double>(b.size());
    if (a.size() < 2 || b.size() < 2) return std::nan("");
    std::vector<std::pair<double, bool>> all;  // value, from a
    all.reserve(a.size() + b.size());
    for (double v : a) all.emplace_back(v, true);
    for (double v : b) all.emplace_back(v, false);
    std::sort(all.begin(), all.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });

    // Mid-ranks over runs of equal values; the tie term sums t^3 - t over those runs.
    double rank_sum_a = 0, tie_term = 0;
    for (std::size_t i = 0; i < all.size();) {
        std::size_t j = i;
        while (j < all.size() && all[j].first == all[i].first) ++j;
        const double t = static_cast<double>(j - i);
        const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
        for (std::size_t k = i; k < j; ++k)
            if (all[k].second) rank_sum_a += mid_rank;
        tie_term += t * t * t - t;
        i = j;
    }
    const double n = n1 + n2;
    const double u = rank_sum_a - n1 * (n1 + 1) / 2;
    const double mean = n1 * n2 / 2;
    const double variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)));
    if (!(variance > 0)) return std::nan("");
    const double distance = std::max(0.0, std::fabs(u - mean) - 0.5);
    return std::erfc(distance / std::sqrt(variance) / std::sqrt(2.0));
}

}  // namespace glint::engine
