// engine/report/html/svg_plot.hpp: a distribution plot as inline SVG, generated here (no
// plotting library). One horizontal lane per sample set (the baseline's above this run's when
// both are given), on one shared linear axis:
//   - a box from the first to the third quartile, a thick line at the median, whiskers to the
//     most extreme samples within 1.5 interquartile ranges of the box;
//   - the samples as dots (at most kMaxDots per lane: evenly spaced order statistics, so the
//     dots keep the distribution's shape), spread vertically by a fixed sequence (no randomness:
//     the same data draws the same picture);
//   - the axis spans the whiskers of both sets together (lowest to highest), so strays in a
//     long tail (a busy machine's preempted samples) do not flatten the boxes; samples beyond
//     it are drawn at the edge as a triangle and counted in the lane's title (the tooltip),
//     which also gives n, median, quartiles, min, max.
// Pure: a function of the samples.
#pragma once

#include <string>
#include <vector>

namespace glint::engine::report::html {

inline constexpr std::size_t kMaxDots = 120;

struct PlotLane {
    std::string label;             // "this run", "baseline"
    std::string css_class;         // "lane-new" or "lane-base"
    std::vector<double> samples;   // ns per iteration
};

// `<svg class="dist" ...>...</svg>`; lanes without samples are left out (an empty plot reads
// "no samples").
std::string distribution_svg(const std::vector<PlotLane>& lanes);

}  // namespace glint::engine::report::html
