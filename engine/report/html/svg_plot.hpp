// engine/report/html/svg_plot.hpp: a distribution plot as inline SVG, no plotting library.
// One lane per sample set (the baseline's above this run's), on one shared linear axis: a box
// (quartiles, median), whiskers at 1.5 IQR, at most kMaxDots dots per lane. The axis spans the
// samples, but strays further than the whiskers' span beyond them are drawn at its edge as
// triangles; its two labels name real samples: the lowest and highest drawn (the min and max
// when nothing strays; else with the strays' count and extreme). Pure and deterministic.
// Rationale and details: docs/rationale.md, "engine/report/html/svg_plot.hpp".
#pragma once

#include <string>
#include <vector>

namespace glint::engine::report::html {

inline constexpr std::size_t kMaxDots = 120;
inline constexpr double kPlotWidth = 480;

struct PlotLane {
    std::string label;            // "this run", "baseline"
    std::string css_class;        // "lane-new" or "lane-base"
    std::vector<double> samples;  // ns per iteration
};

// `<svg class="dist" ...>...</svg>`; lanes without samples are left out (an empty plot reads
// "no samples"). Each lane is a <g class="CSS" data-min data-max> (its samples' extremes, ns,
// exact: the shortest text of the double);
// the labels are <text class="axis lo|hi" data-ns="the sample it names"> (data-stray-ns: the
// extreme of the strays beyond, when some are).
std::string distribution_svg(const std::vector<PlotLane>& lanes);

// A time as the plot writes it: the unit format_time_ns would pick for `scale_ns`, with enough
// decimals to tell apart values `span_ns` apart ("2.163µs" where the table prints "2.2µs").
std::string plot_time(double ns, double scale_ns, double span_ns);

}  // namespace glint::engine::report::html
