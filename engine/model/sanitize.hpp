// engine/model/sanitize.hpp: the one place that makes text from user code (case names, labels,
// fail() messages, metric names, paths) safe for each output kind; every writer calls its kind's
// function and none escapes on its own.
//
// Contracts: every output is valid UTF-8 and a function of its input alone. terminal holds no
// C0, DEL or C1 character (made visible, never deleted; one column each) and no bidirectional or
// zero-width format character (shown by name, "<U+202E>", so no name displays reordered or
// hidden); markdown, csv and html
// add their kind's escaping (no live markup, no formula, no table-cell break);
// append_json_string writes a JSON literal with C0, DEL and C1 as \uXXXX.
// Rationale and details: docs/rationale.md, "engine/model/sanitize.hpp".
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace glint::engine::sanitize {

bool is_valid_utf8(std::string_view text);
std::string valid_utf8(std::string_view text);
std::string terminal(std::string_view text);
std::string markdown(std::string_view text);
std::string csv(std::string_view text);
std::string html(std::string_view text);
void append_json_string(std::string& out, std::string_view text);

// The stderr note (without "glint: note: ") for case names that are not valid UTF-8: how many,
// the first as the terminal shows it, and that every output writes U+FFFD for each bad byte.
// Empty when every name is valid.
std::string invalid_utf8_note(const std::vector<std::string_view>& names);

}  // namespace glint::engine::sanitize
