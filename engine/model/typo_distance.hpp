// engine/model/typo_distance.hpp: how many typos turn one name into another, for the "did you
// mean" of an unknown flag (cli/flag_hints) and of a filter or metric name (runner/preflight).
#pragma once

#include <cstddef>
#include <string_view>

namespace glint::engine {

// Edits (insert, delete, replace, swap two neighbours) turning `a` into `b`: optimal string
// alignment, so a swap ("medain") is one typo where Levenshtein counts two.
std::size_t typo_distance(std::string_view a, std::string_view b);

}  // namespace glint::engine
