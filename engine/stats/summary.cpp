#include "engine/stats/summary.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace glint::engine {

double median(std::span<const double> values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
    std::vector<double> v(values.begin(), values.end());
    const std::size_t mid = v.size() / 2;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
    const double upper = v[mid];
    if (v.size() % 2 == 1) return upper;
    const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
    return lower + (upper - lower) / 2;
}

double median_abs_deviation(std::span<const double> values) {
    if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
    const double m = median(values);
    std::vector<double> deviations;
    deviations.reserve(values.size());
    for (double x : values) deviations.push_back(std::fabs(x - m));
    return median(deviations);
}

Summary summarize(std::span<const double> values) {
    Summary s;
    s.median = median(values);
    s.mad = median_abs_deviation(values);
    auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    s.min = values.empty() ? std::numeric_limits<double>::quiet_NaN() : *lo;
    s.max = values.empty() ? std::numeric_limits<double>::quiet_NaN() : *hi;
    return s;
}

Moments moments(std::span<const double> values) {
    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    Moments m{nan, nan, nan};
    if (values.empty()) return m;
    double sum = 0;
    for (double x : values) sum += x;
    m.mean = sum / static_cast<double>(values.size());
    if (values.size() < 2) return m;
    double squares = 0;
    for (double x : values) squares += (x - m.mean) * (x - m.mean);
    m.stddev = std::sqrt(squares / static_cast<double>(values.size() - 1));
    m.cv = m.mean != 0 ? m.stddev / m.mean : nan;
    return m;
}

}  // namespace glint::engine
