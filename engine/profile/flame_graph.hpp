// engine/profile/flame_graph.hpp: a case's folded stacks as an SVG icicle graph (a flame graph
// drawn from the top), generated here: no external library, no script, no network.
//
// The root bar is the whole case (every sample); beneath each bar its callees, left to right by
// name, each as wide as its share of the samples; a bar's <title> (the hover text) holds the
// full function name, its samples and its share. Its label is the name, shortened by rule
// (function_name.hpp) where the bar is too narrow for it; bars under min_text_px carry none. Bars
// narrower than min_width_px are left out (their samples still count in their parents' widths).
// Colours: a warm palette picked by a hash of the name (stable across cases and runs). Meant for
// the HTML report: one <svg class="flame"> per case, in the full-width row beneath the case's row.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/json.hpp"

namespace glint::engine::profile {

struct FlameStyle {
    double width_px = 1200;
    double bar_px = 16;
    double min_width_px = 0.5;
    double min_text_px = 24;   // narrower bars carry no label (the name is in their <title>)
    double char_px = 6.7;      // the advance of one character of the 11px monospace label
    std::string root = "all";  // the root bar's label
};

// `stacks`: "outer;...;inner" and its sample count (no root frame).
std::string flame_graph_svg(const std::vector<std::pair<std::string, std::uint64_t>>& stacks,
                            const FlameStyle& style = {});

// From a row's JSON profile (rows[].profile: its "folded" list); "" when it has none.
std::string flame_graph_from_profile(const Json& profile, const FlameStyle& style = {});

}  // namespace glint::engine::profile
