// engine/model/json_values.hpp: small conversions to Json that several meta writers share.
#pragma once

#include <cmath>
#include <optional>
#include <vector>

#include "engine/model/json.hpp"

namespace glint::engine {

// [0, 1, 4]: a list of CPU (or node) numbers.
inline Json number_list_json(const std::vector<unsigned>& values) {
    Json a = Json::array();
    for (unsigned v : values) a.push_back(v);
    return a;
}

// The value, or null when it was not measured (nan or infinite).
inline Json number_or_null(double value) { return std::isfinite(value) ? Json(value) : Json(); }

// The value, or null when absent.
template <class T>
Json optional_json(const std::optional<T>& value) {
    return value ? Json(*value) : Json();
}

}  // namespace glint::engine
