// engine/report/color.hpp: colour in the box table, and when there is any. Restrained: the
// header's labels bold, the unstable mark and codes dim yellow, a vs-base change green when the
// verdict says faster and red when it says slower. Escape codes never count toward a width
// (text.hpp's display_width skips them): a painted table without its codes is the plain one.
#pragma once

#include <string>
#include <string_view>

namespace glint::engine::report {

inline constexpr std::string_view kBold = "\x1b[1m";
inline constexpr std::string_view kUnstableStyle = "\x1b[2;33m";  // dim yellow
inline constexpr std::string_view kBetterStyle = "\x1b[32m";      // green
inline constexpr std::string_view kWorseStyle = "\x1b[31m";       // red
inline constexpr std::string_view kResetStyle = "\x1b[0m";

// Whether the table is painted. `mode` is --color's: "always", "never" or "auto"; auto paints
// when the table goes to a terminal, NO_COLOR is unset or empty (https://no-color.org) and
// TERM is not "dumb". The flag overrides the environment. null: the variable is unset.
bool paints(std::string_view mode, bool terminal, const char* no_color, const char* term);

// `text` with its non-space part between `style` and kResetStyle (padding stays plain).
std::string painted(std::string_view text, std::string_view style);

// `text` without any CSI escape sequence (ESC '[' ... final byte).
std::string without_escapes(std::string_view text);

}  // namespace glint::engine::report
