#include "engine/stats/shift.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "engine/model/not_measured.hpp"
#include "engine/stats/summary.hpp"

namespace glint::engine {
namespace {

// The pairwise differences b[j] - a[i] of two sorted sets, never materialised: each row i holds
// b[0..n) - a[i], ascending in j and (rounding is monotone) descending in i, so the count of
// differences below a value takes one O(m + n) staircase walk.
class DifferenceMatrix {
  public:
    DifferenceMatrix(std::span<const double> a, std::span<const double> b)
        : a_(a.begin(), a.end()), b_(b.begin(), b.end()) {
        std::sort(a_.begin(), a_.end());
        std::sort(b_.begin(), b_.end());
    }

    // The k-th smallest difference (0-based), exactly the value a full sort would put at k:
    // randomized selection over per-row candidate ranges (Monahan's scheme), O(m + n) memory and
    // expected O((m + n) log(mn)) time. Deterministic (fixed seed).
    double select(std::uint64_t k) const {
        const std::size_t m = a_.size(), n = b_.size();
        std::vector<std::size_t> lo(m, 0), hi(m, n), below(m), through(m);
        std::uint64_t skipped = 0;  // differences left of every row's range (all smaller)
        std::mt19937_64 rng(0x9e3779b97f4a7c15ULL);
        for (;;) {
            std::uint64_t candidates = 0;
            for (std::size_t i = 0; i < m; ++i) candidates += hi[i] - lo[i];
            if (candidates <= std::max<std::uint64_t>(m + n, 64)) {
                std::vector<double> left;
                left.reserve(static_cast<std::size_t>(candidates));
                for (std::size_t i = 0; i < m; ++i)
                    for (std::size_t j = lo[i]; j < hi[i]; ++j) left.push_back(at(i, j));
                const auto nth = left.begin() + static_cast<std::ptrdiff_t>(k - skipped);
                std::nth_element(left.begin(), nth, left.end());
                return *nth;
            }
            std::uint64_t pick =
                std::uniform_int_distribution<std::uint64_t>(0, candidates - 1)(rng);
            std::size_t row = 0;
            while (pick >= hi[row] - lo[row]) {
                pick -= hi[row] - lo[row];
                ++row;
            }
            const double pivot = at(row, lo[row] + static_cast<std::size_t>(pick));
            // below[i]: differences of row i under the pivot; through[i]: at most the pivot. Both
            // grow as i grows (a row's differences fall), so the columns only move right.
            std::uint64_t under = 0, upto = 0;
            std::size_t lt = 0, le = 0;
            for (std::size_t i = 0; i < m; ++i) {
                while (lt < n && at(i, lt) < pivot) ++lt;
                while (le < n && at(i, le) <= pivot) ++le;
                below[i] = lt;
                through[i] = le;
                under += lt;
                upto += le;
            }
            if (k < under) {
                for (std::size_t i = 0; i < m; ++i) hi[i] = std::min(hi[i], below[i]);
            } else if (k < upto) {
                return pivot;
            } else {
                for (std::size_t i = 0; i < m; ++i) {
                    const std::size_t next = std::max(lo[i], through[i]);
                    skipped += next - lo[i];
                    lo[i] = next;
                    hi[i] = std::max(hi[i], lo[i]);
                }
            }
        }
    }

    std::uint64_t size() const { return static_cast<std::uint64_t>(a_.size()) * b_.size(); }

  private:
    double at(std::size_t i, std::size_t j) const { return b_[j] - a_[i]; }

    std::vector<double> a_, b_;
};

// The largest c with P(U <= c) <= tail, or nullopt when even P(U <= 0) exceeds it.
std::optional<std::size_t> exact_critical(std::size_t m, std::size_t n, double tail) {
    const std::vector<double> cdf = rank_sum_cdf(m, n);
    std::optional<std::size_t> c;
    // A relative tolerance, so a tail of exactly 1/20 is met at level 0.90 (1 - 0.9 is inexact).
    for (std::size_t u = 0; u < cdf.size() && cdf[u] <= tail * (1 + 1e-9); ++u) c = u;
    return c;
}

}  // namespace

double hodges_lehmann_shift(std::span<const double> a, std::span<const double> b) {
    if (a.empty() || b.empty()) return kNan;
    const DifferenceMatrix d(a, b);
    const std::uint64_t mid = d.size() / 2;
    const double upper = d.select(mid);
    if (d.size() % 2 == 1) return upper;
    const double lower = d.select(mid - 1);
    return lower + (upper - lower) / 2;  // as median() averages the middle pair
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
    // Bisection on the normal CDF (erfc): slow but exact to double precision, and only called a
    // few times per comparison.
    double lo = -40, hi = 40;
    for (int i = 0; i < 200; ++i) {
        const double mid = (lo + hi) / 2;
        const double cdf = 0.5 * std::erfc(-mid / std::sqrt(2.0));
        (cdf < p ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

std::optional<ShiftInterval> shift_interval(std::span<const double> a, std::span<const double> b,
                                            double level) {
    const std::size_t m = a.size(), n = b.size();
    if (m == 0 || n == 0 || !(level > 0 && level < 1)) return std::nullopt;
    const double tail = (1 - level) / 2;
    const std::size_t mn = m * n;
    ShiftInterval interval;
    std::size_t k = 0;  // 1-based rank of the lower bound among the sorted differences
    if (m <= kExactRankLimit && n <= kExactRankLimit) {
        const auto c = exact_critical(std::min(m, n), std::max(m, n), tail);
        if (!c) return std::nullopt;
        k = *c + 1;
        interval.coverage = 1 - 2 * rank_sum_cdf(std::min(m, n), std::max(m, n))[*c];
        interval.exact = true;
    } else {
        const double z = normal_quantile(1 - tail);
        const double sd = std::sqrt(static_cast<double>(mn) * static_cast<double>(m + n + 1) / 12);
        const double c = std::floor(static_cast<double>(mn) / 2 - z * sd);
        if (c < 1) return std::nullopt;
        k = static_cast<std::size_t>(c);
        interval.coverage = level;
    }
    const DifferenceMatrix d(a, b);
    interval.low = d.select(k - 1);
    interval.high = d.select(mn - k);
    return interval;
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
