#include "engine/stats/shift.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "engine/model/not_measured.hpp"
#include "engine/stats/difference_matrix.hpp"
#include "engine/stats/summary.hpp"

namespace glint::engine {
namespace {

// The largest c with P(U <= c) <= tail, or nullopt when even P(U <= 0) exceeds it.
std::optional<std::size_t> exact_critical(const std::vector<double>& cdf, double tail) {
    std::optional<std::size_t> c;
    // A relative tolerance, so a tail of exactly 1/20 is met at level 0.90 (1 - 0.9 is inexact).
    for (std::size_t u = 0; u < cdf.size() && cdf[u] <= tail * (1 + 1e-9); ++u) c = u;
    return c;
}

// The median of the differences, as median() takes it (the middle pair averaged).
double median_difference(const DifferenceMatrix& d) {
    const std::uint64_t mid = d.size() / 2;
    const double upper = d.select(mid);
    if (d.size() % 2 == 1) return upper;
    // The (mid - 1)-th is `upper` again unless mid differences lie below it.
    const double lower = d.count_below(upper) < mid ? upper : d.largest_below(upper);
    return lower + (upper - lower) / 2;
}

// Moses' rank k (1-based) of the lower bound, with the coverage it guarantees.
struct MosesRank {
    std::size_t k = 0;
    double coverage = 0;
    bool exact = false;
};

std::optional<MosesRank> moses_rank(std::size_t m, std::size_t n, double level) {
    const double tail = (1 - level) / 2;
    MosesRank out;
    if (m <= kExactRankLimit && n <= kExactRankLimit) {
        const std::vector<double> cdf = rank_sum_cdf(std::min(m, n), std::max(m, n));
        const auto c = exact_critical(cdf, tail);
        if (!c) return std::nullopt;
        out.k = *c + 1;
        out.coverage = 1 - 2 * cdf[*c];
        out.exact = true;
        return out;
    }
    const double mn = static_cast<double>(m) * static_cast<double>(n);
    const double z = normal_quantile(1 - tail);
    const double c = std::floor(mn / 2 - z * std::sqrt(mn * static_cast<double>(m + n + 1) / 12));
    if (c < 1) return std::nullopt;
    out.k = static_cast<std::size_t>(c);
    out.coverage = level;
    return out;
}

std::optional<ShiftInterval> interval_of(const DifferenceMatrix& d, std::size_t m, std::size_t n,
                                         double level) {
    if (d.empty() || !(level > 0 && level < 1)) return std::nullopt;
    const auto rank = moses_rank(m, n, level);
    if (!rank) return std::nullopt;
    ShiftInterval interval;
    interval.coverage = rank->coverage;
    interval.exact = rank->exact;
    interval.low = d.select(rank->k - 1);
    interval.high = d.select(d.size() - rank->k);
    return interval;
}

}  // namespace

double hodges_lehmann_shift(std::span<const double> a, std::span<const double> b) {
    if (a.empty() || b.empty()) return kNan;
    return median_difference(DifferenceMatrix(a, b));
}

ShiftEstimate estimate_shift(std::span<const double> a, std::span<const double> b, double level) {
    ShiftEstimate out;
    if (a.empty() || b.empty()) return out;
    const DifferenceMatrix d(a, b);
    out.shift = median_difference(d);
    out.interval = interval_of(d, a.size(), b.size(), level);
    return out;
}

std::vector<double> rank_sum_cdf(std::size_t m, std::size_t n) {
    // The counts of U are the coefficients of the Gaussian binomial [m+n choose m]_q, built one
    // factor (1 - q^(n+k)) / (1 - q^k) at a time; every partial product is itself a Gaussian
    // binomial, so each division is exact and every coefficient stays a non-negative integer
    // below C(m+n, m) (< 2^53 for m, n <= 25).
    std::vector<double> poly(m * n + 1, 0.0);
    poly[0] = 1;
    std::size_t degree = 0;
    for (std::size_t k = 1; k <= m; ++k) {
        const std::size_t up = n + k;
        const std::size_t next_degree = degree + n;  // degree of [n+k choose k]_q is k*n
        // Times (1 - q^(n+k)), descending so each term reads the old coefficient; terms above
        // the quotient's degree cancel in the division and are never written.
        for (std::size_t u = next_degree + 1; u-- > up;) poly[u] -= poly[u - up];
        for (std::size_t u = k; u <= next_degree; ++u) poly[u] += poly[u - k];
        degree = next_degree;
    }
    double total = 0;
    for (double c : poly) total += c;
    std::vector<double> cdf(poly.size());
    double running = 0;
    for (std::size_t u = 0; u < poly.size(); ++u) {
        running += poly[u];
        cdf[u] = running / total;
    }
    return cdf;
}

double normal_quantile(double p) {
    // Bisection on the normal CDF (erfc): slow but exact to double precision. Every row of a
    // comparison asks for the same level's quantile: the last answer is kept.
    thread_local double last_p = kNan, last_z = kNan;
    if (p == last_p) return last_z;
    double lo = -40, hi = 40;
    for (int i = 0; i < 200; ++i) {
        const double mid = (lo + hi) / 2;
        const double cdf = 0.5 * std::erfc(-mid / std::sqrt(2.0));
        (cdf < p ? lo : hi) = mid;
    }
    last_p = p;
    last_z = (lo + hi) / 2;
    return last_z;
}

std::optional<ShiftInterval> shift_interval(std::span<const double> a, std::span<const double> b,
                                            double level) {
    if (a.empty() || b.empty() || !(level > 0 && level < 1)) return std::nullopt;
    return interval_of(DifferenceMatrix(a, b), a.size(), b.size(), level);
}

std::vector<double> thin_to_quantiles(std::span<const double> values, std::size_t count) {
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    if (sorted.size() <= count || count < 2) return sorted;
    std::vector<double> out;
    out.reserve(count);
    const double step = static_cast<double>(sorted.size() - 1) / static_cast<double>(count - 1);
    for (std::size_t i = 0; i < count; ++i)
        out.push_back(sorted[static_cast<std::size_t>(std::lround(step * static_cast<double>(i)))]);
    return out;
}

}  // namespace glint::engine
