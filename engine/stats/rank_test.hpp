// engine/stats/rank_test.hpp: the Mann–Whitney U test (Wilcoxon rank-sum) of two sample sets.
// Pure. Used to say whether a run's timing samples differ from a baseline's beyond noise,
// without assuming the samples are normally distributed (timing samples are not).
#pragma once

#include <span>

namespace glint::engine {

// Two-sided p-value of the hypothesis that `a` and `b` come from the same distribution: the
// normal approximation of U with the tie correction and a continuity correction of 0.5.
// nan when either side has fewer than 2 values or every value is tied (nothing to rank).
double mann_whitney_p(std::span<const double> a, std::span<const double> b);

}  // namespace glint::engine
