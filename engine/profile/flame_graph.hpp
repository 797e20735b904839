// engine/profile/flame_graph.hpp: a case's folded stacks as an SVG icicle graph (a flame graph
// drawn from the top), generated here: no external library, no script, no network.
//
// The root bar is the whole case (every sample); beneath each bar its callees, left to right by
// name, each as wide as its share of the samples; a bar's <title> (the hover text) holds the
// function, its samples and its share. Bars narrower than FlameStyle::min_width_px are left
// out (their samples still count in their parents' widths). Colours are a warm palette picked
// by a hash of the function's name, so a function keeps its colour across cases and runs.
// Meant for the HTML report: one <svg class="flame"> per case (its row's extra markup).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/json.hpp"

namespace glint::engine::profile {

struct FlameStyle {
    double width_px = 960;
    double bar_px = 16;
    double min_width_px = 0.5;
    std::string root = "all";  // the root bar's label
};

// `stacks`: "outer;...;inner" and its sample count (no root frame).
std::string flame_graph_svg(const std::vector<std::pair<std::string, std::uint64_t>>& stacks,
                            const FlameStyle& style = {});

// From a row's JSON profile (rows[].profile: its "folded" list); "" when it has none.
std::string flame_graph_from_profile(const Json& profile, const FlameStyle& style = {});

}  // namespace glint::engine::profile
