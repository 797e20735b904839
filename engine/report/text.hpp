// engine/report/text.hpp: display-width arithmetic for the terminal table.
//
// Contract: the display width of a string is its number of UTF-8 code points, not counting
// ANSI CSI escape sequences (ESC '[' ... final byte). Every glyph the table uses (µ ≈ — ± …,
// box drawing, braille spinner) is one column wide; East Asian wide characters are not
// special-cased (they would count as one column).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace glint::engine::report {

std::size_t display_width(std::string_view text);

// `text` cut to at most `width` columns; a cut string ends in "…" (which counts as one column).
std::string truncate_to_width(std::string_view text, std::size_t width);

// `text` followed (pad_right) or preceded (pad_left) by spaces up to `width` columns; a text
// already as wide or wider is returned unchanged.
std::string pad_right(std::string_view text, std::size_t width);
std::string pad_left(std::string_view text, std::size_t width);

// `line` broken at spaces into lines of at most `width` columns, each after the first starting
// with `indent`; a word wider than that stays whole (a path is never cut). A line that fits is
// returned alone, unchanged.
std::vector<std::string> wrap_to_width(std::string_view line, std::size_t width,
                                       std::string_view indent = "  ");

// The width text is wrapped to on `out`: the terminal's, else kPipedWidth.
inline constexpr std::size_t kPipedWidth = 100;
std::size_t wrap_width(std::FILE* out);
// `line` and a newline on `out`, wrapped to wrap_width(out) (how stderr notes are printed).
void print_wrapped(std::FILE* out, std::string_view line, std::string_view indent = "  ");

// `glyph` repeated `count` times.
std::string repeat(std::string_view glyph, std::size_t count);

// A numeric cell split at its first '.': `left` columns before the point, `right` columns from
// the point to the end. A cell without '.' aligns as if the point came after it (right == 0).
struct PointSplit {
    std::size_t left = 0;
    std::size_t right = 0;
};
PointSplit split_at_point(std::string_view cell);

}  // namespace glint::engine::report
