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

}  // namespace glint::engine
