// engine/stats/shift.hpp: how far one sample set lies from another, estimated and bounded without
// assuming a distribution. Pure functions of their inputs.
//
// The shift of `b` against `a` is the Hodges–Lehmann estimator: the median of every pairwise
// difference b[j] - a[i]. Its confidence interval is Moses' rank interval: the k-th smallest and
// k-th largest pairwise difference, k chosen from the distribution of the Mann–Whitney U
// statistic (exact for small sets, its normal approximation beyond), so that the interval covers
// the true shift with at least the requested probability whenever both sets are independent
// draws from distributions that differ by a shift. Callers compare timings on a log scale, where
// a shift is a ratio.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <vector>

namespace glint::engine {

// Median of all pairwise differences b[j] - a[i]; nan when either side is empty. Exactly the
// value a sort of the m*n differences gives (ties included).
double hodges_lehmann_shift(std::span<const double> a, std::span<const double> b);

// P(U <= u) for u = 0..m*n, U the Mann–Whitney statistic of sets of m and n values without
// ties under the hypothesis that they come from one distribution. Exact (every arrangement
// counted); m, n at most kExactRankLimit.
inline constexpr std::size_t kExactRankLimit = 25;
std::vector<double> rank_sum_cdf(std::size_t m, std::size_t n);

// The standard normal quantile: z with P(Z <= z) = p, for 0 < p < 1.
double normal_quantile(double p);

struct ShiftInterval {
    double low = 0, high = 0;  // bounds of the shift b - a
    double coverage = 0;       // the coverage the chosen k guarantees (>= the level asked)
    bool exact = false;        // k from the exact distribution (else the normal approximation)
};

// Moses' interval for the shift b - a at `level` (e.g. 0.95): [d(k), d(mn + 1 - k)] of the
// sorted pairwise differences. nullopt when no k reaches `level`: too few values (3 against 3
// reach at most 90%, 4 against 4 reach 97.1%) or an empty side. These functions select among
// the differences without materialising them (difference_matrix.hpp): O(m + n) memory,
// expected O((m + n) log(m + n)) time (a sort, then O(log mn) linear walks per order statistic).
std::optional<ShiftInterval> shift_interval(std::span<const double> a, std::span<const double> b,
                                            double level);

// Both at once over one sorted copy of the sets: the shift (nan when a side is empty) and the
// interval, each exactly what the functions above return.
struct ShiftEstimate {
    double shift = std::numeric_limits<double>::quiet_NaN();
    std::optional<ShiftInterval> interval;
};
ShiftEstimate estimate_shift(std::span<const double> a, std::span<const double> b, double level);

// At most `count` evenly spaced order statistics of `values` (the minimum and the maximum kept),
// sorted: a smaller set of the same shape. Returns the values sorted when there are no more than
// `count`. count >= 2.
std::vector<double> thin_to_quantiles(std::span<const double> values, std::size_t count);

}  // namespace glint::engine
