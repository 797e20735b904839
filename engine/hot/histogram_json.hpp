// engine/hot/histogram_json.hpp: a histogram as an engine::Json value (for --bench-json meta);
// glint::hot::to_json is its text.
#pragma once

#include <glint/histogram.hpp>

#include "engine/model/json.hpp"

namespace glint::hot {

engine::Json histogram_json(const Histogram& histogram);

}  // namespace glint::hot
