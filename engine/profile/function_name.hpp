// engine/profile/function_name.hpp: a demangled function name shortened to a width by a rule that
// keeps the function's own name, for the flat profile's rows and the flame graph's labels (the
// full name stays in JSON, the folded stacks and the flame graph's tooltips).
//
// A name that fits is returned unchanged. Otherwise, in order, until it fits:
//   1. template arguments elided, innermost first: basic_string<char, traits<…>, …> then <…>;
//   2. parameter lists elided: to_upper(…), {lambda(…)#1} ("()" stays, so does operator());
//   3. leading qualifiers (and a return type) dropped: …::to_upper(…);
//   4. cut: the head kept, "…" last (the last resort, as a name that is itself long).
// Operator names (operator<, operator<=>, operator()) are never read as brackets. Widths count
// UTF-8 code points ("…" is one).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace glint::engine::profile {

std::string shorten_function_name(std::string_view name, std::size_t width);

// Code points of `text` (UTF-8): the width shorten_function_name measures.
std::size_t code_points(std::string_view text);

}  // namespace glint::engine::profile
