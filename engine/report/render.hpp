// engine/report/render.hpp: the table as text. Pure functions of (head, rows, layout): the
// piped reporter prints a whole table, the live reporter prints the same lines one at a time
// (and a spinner row), so a live table's last frame is the piped rendering of its layout.
//
// Every function returns one line without its newline, of display width table_width(layout),
// with no escape codes unless `color` asks for them (color.hpp). Shape (seed 001):
//   ╭──╼ title ╾───┬─────╮      top border (title overwrites the joins it covers)
//   │ benchmark │     n │      header: name left-aligned, numeric labels right-aligned
//   ┝━━━━━━━━━━━┿━━━━━━━┥      header separator
//   │ a.bench   │ 32×16 │      rows: numeric cells aligned on the decimal point
//   ╰───────────┴───────╯      bottom border
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/report/layout.hpp"

namespace glint::engine::report {

struct TableModel {
    TableHead head;
    std::vector<FormattedRow> rows;  // in display order
    Layout layout;
};

// The spinner's frames, advanced once per case_progress().
inline constexpr const char* kSpinnerGlyphs[] = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
inline constexpr std::size_t kSpinnerFrames = sizeof kSpinnerGlyphs / sizeof kSpinnerGlyphs[0];

std::string render_top_border(const TableHead& head, const Layout& layout);
std::string render_header(const TableHead& head, const Layout& layout, bool color = false);
std::string render_separator(const Layout& layout);
// A measured row, or an error row (name, then the message truncated with "…" to the span).
std::string render_row(const FormattedRow& row, const Layout& layout, bool color = false);
// The row of the case in flight: "⠹ name" (cut to the name column), then `status`
// ("measuring… case 2/7 · ~3s left") spanning the numeric columns, cut to fit.
std::string render_spinner_row(std::string_view glyph, std::string_view name,
                               std::string_view status, const Layout& layout);
std::string render_bottom_border(const Layout& layout);

// The whole table, one '\n'-terminated line each.
std::string render_table(const TableModel& table, bool color = false);

// The rows formatted and laid out tightly, then rendered: what piped output prints.
TableModel tight_table(const TableHead& head, const std::vector<Row>& rows);

}  // namespace glint::engine::report
