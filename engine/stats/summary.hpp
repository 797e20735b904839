// engine/stats/summary.hpp: order statistics of timing samples. Pure functions.
#pragma once

#include <span>
#include <vector>

namespace glint::engine {

// Median of the values (the mean of the two middle values for an even count). nan when empty.
double median(std::span<const double> values);

// Median absolute deviation around the median (unscaled). nan when empty.
double median_abs_deviation(std::span<const double> values);

struct Summary {
    double median = 0, mad = 0, min = 0, max = 0;
};

// The four statistics of a non-empty sample set.
Summary summarize(std::span<const double> values);

// The moments a Google Benchmark user looks for: the arithmetic mean, the sample standard
// deviation (n - 1) and the coefficient of variation (stddev / mean, a fraction). nan where
// undefined: all three for no values, stddev and cv for one value, cv for a mean of 0.
struct Moments {
    double mean = 0, stddev = 0, cv = 0;
};
Moments moments(std::span<const double> values);

}  // namespace glint::engine
