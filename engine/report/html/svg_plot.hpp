// engine/report/html/svg_plot.hpp: a distribution plot as inline SVG, no plotting library.
// One lane per sample set (the baseline's above this run's), on one shared linear axis: a box
// (quartiles, median), whiskers at 1.5 IQR, at most kMaxDots dots per lane; samples beyond the
// axis are drawn at its edge and counted in the lane's title. Pure and deterministic: the same
// samples draw the same picture.
// Rationale and details: docs/rationale.md, "engine/report/html/svg_plot.hpp".
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
