// engine/model/sanitize.hpp: the one place that makes text from user code (case names, labels,
// glint::fail() messages, metric names and units, paths) safe for each kind of output glint
// writes. Every writer uses the function of its output kind; none escapes on its own.
//
// Contracts (each output is valid UTF-8; the same input always gives the same output):
// - valid_utf8: every byte that does not start a well-formed UTF-8 sequence (overlong forms,
//   surrogates and code points above U+10FFFF included) becomes U+FFFD; valid text is unchanged.
// - terminal: valid_utf8, then every control character made visible, never deleted: a tab
//   becomes one space; the rest of C0 and DEL become their Control Pictures (ESC -> U+241B, LF -> U+240A, BEL -> U+2407, DEL -> U+2421),
//   C1 (U+0080..U+009F) becomes U+FFFD. The result holds no byte below 0x20, no 0x7F and no C1
//   code point, so it cannot move the cursor, open an OSC hyperlink, ring or break the line.
//   One column per replaced character, so table widths stay right.
// - markdown: terminal, then \ ` * _ [ ] ~ | backslash-escaped (but an intraword _ between
//   ASCII letters or digits, which GFM never reads as emphasis) and & < > as entities: no live
//   markup (emphasis, links, code, HTML comments or tags) and no table-cell break.
// - csv: terminal, then a leading = + - @ (a spreadsheet formula) gets a ' in front, and the
//   field is quoted (quotes doubled) when it holds , or " or starts or ends with a space.
// - html: terminal, then & < > " ' as entities: safe as element text and as a quoted attribute.
// - append_json_string: a JSON string literal: valid_utf8, then " and \ escaped, every C0,
//   DEL and C1 character as \uXXXX (so the document also prints safely on a terminal).
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
