#include "engine/report/render.hpp"

#include <algorithm>

#include "engine/model/sanitize.hpp"
#include "engine/report/color.hpp"
#include "engine/report/text.hpp"

namespace glint::engine::report {

namespace {

struct BorderGlyphs {
    const char* left;
    const char* fill;
    const char* join;
    const char* right;
};

constexpr BorderGlyphs kTop = {"╭", "─", "┬", "╮"};
constexpr BorderGlyphs kSeparator = {"┝", "━", "┿", "┥"};
constexpr BorderGlyphs kBottom = {"╰", "─", "┴", "╯"};

// A border line as one glyph per display column.
std::vector<std::string> border_glyphs(const Layout& layout, const BorderGlyphs& glyphs) {
    std::vector<std::string> line;
    line.reserve(table_width(layout));
    line.emplace_back(glyphs.left);
    line.insert(line.end(), layout.name + 2, glyphs.fill);
    for (const std::size_t width : column_widths(layout)) {
        line.emplace_back(glyphs.join);
        line.insert(line.end(), width + 2, glyphs.fill);
    }
    line.emplace_back(glyphs.right);
    return line;
}

std::string join(const std::vector<std::string>& glyphs) {
    std::string out;
    for (const auto& g : glyphs) out += g;
    return out;
}

std::vector<std::string> split_glyphs(std::string_view text) {
    std::vector<std::string> glyphs;
    for (std::size_t i = 0; i < text.size();) {
        std::size_t j = i + 1;
        while (j < text.size() && (static_cast<unsigned char>(text[j]) & 0xC0) == 0x80) ++j;
        glyphs.emplace_back(text.substr(i, j - i));
        i = j;
    }
    return glyphs;
}

std::string cells_line(const std::string& name_cell, const std::vector<std::string>& cells) {
    std::string line = "│ " + name_cell + " │";
    for (const auto& cell : cells) line += " " + cell + " │";
    return line;
}

// The numeric cells with the unstable column's cell (padded to its width) in its place.
std::vector<std::string> with_unstable_cell(std::vector<std::string> cells, const Layout& layout,
                                            const std::string& cell) {
    if (layout.unstable == 0) return cells;
    const std::size_t at = std::min(kUnstablePosition, cells.size());
    cells.insert(cells.begin() + static_cast<std::ptrdiff_t>(at), cell);
    return cells;
}

// A measured row's aligned cell painted: the unstable mark of the median, a toned change.
std::string painted_cell(std::string cell, std::size_t index, const FormattedRow& row) {
    const catalog::Tone tone = index < row.tones.size() ? row.tones[index] : catalog::Tone::neutral;
    if (tone == catalog::Tone::better) return painted(cell, kBetterStyle);
    if (tone == catalog::Tone::worse) return painted(cell, kWorseStyle);
    const std::size_t mark =
        index == 1 && !row.reasons.empty() ? cell.find(kUnstableMark) : std::string::npos;
    if (mark == std::string::npos) return cell;
    return cell.substr(0, mark) + std::string(kUnstableStyle) + kUnstableMark +
           std::string(kResetStyle) + cell.substr(mark + std::string_view(kUnstableMark).size());
}

}  // namespace

std::string render_top_border(const TableHead& head, const Layout& layout) {
    std::vector<std::string> line = border_glyphs(layout, kTop);
    if (!head.title.empty()) {
        std::vector<std::string> overlay =
            split_glyphs("──╼ " + sanitize::terminal(head.title) + " ╾");
        // The layout guarantees room for the overlay, one "─" and the corner.
        for (std::size_t i = 0; i < overlay.size() && i + 2 < line.size(); ++i)
            line[i + 1] = overlay[i];
    }
    return join(line);
}

std::string render_header(const TableHead& head, const Layout& layout, bool color) {
    std::vector<std::string> headers = numeric_headers(head);
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < layout.numeric.size(); ++i)
        cells.push_back(pad_left(i < headers.size() ? headers[i] : "", layout.numeric[i].width));
    cells =
        with_unstable_cell(std::move(cells), layout, pad_right(kUnstableHeader, layout.unstable));
    std::string name = pad_right(head.first_column, layout.name);
    if (color) {
        name = painted(name, kBold);
        for (auto& cell : cells) cell = painted(cell, kBold);
    }
    return cells_line(name, cells);
}

std::string render_separator(const Layout& layout) {
    return join(border_glyphs(layout, kSeparator));
}

std::string render_row(const FormattedRow& row, const Layout& layout, bool color) {
    std::string name = pad_right(truncate_to_width(row.name, layout.name), layout.name);
    if (row.error) {
        std::size_t span = error_span_width(layout);
        return cells_line(name, {pad_right(truncate_to_width(*row.error, span), span)});
    }
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < layout.numeric.size(); ++i) {
        std::string cell =
            align_numeric(layout.numeric[i], i < row.cells.size() ? row.cells[i] : "");
        cells.push_back(color ? painted_cell(std::move(cell), i, row) : std::move(cell));
    }
    std::string codes = pad_right(row.reasons, layout.unstable);
    return cells_line(name, with_unstable_cell(std::move(cells), layout,
                                               color ? painted(codes, kUnstableStyle) : codes));
}

std::string render_spinner_row(std::string_view glyph, std::string_view name,
                               std::string_view status, const Layout& layout) {
    std::string label = std::string(glyph) + " " + sanitize::terminal(name);
    const std::size_t span = error_span_width(layout);
    return cells_line(pad_right(truncate_to_width(label, layout.name), layout.name),
                      {pad_right(truncate_to_width(sanitize::terminal(status), span), span)});
}

std::string render_bottom_border(const Layout& layout) {
    return join(border_glyphs(layout, kBottom));
}

std::string render_table(const TableModel& table, bool color) {
    std::string out = render_top_border(table.head, table.layout) + "\n";
    out += render_header(table.head, table.layout, color) + "\n";
    out += render_separator(table.layout) + "\n";
    for (const auto& row : table.rows) out += render_row(row, table.layout, color) + "\n";
    out += render_bottom_border(table.layout) + "\n";
    return out;
}

TableModel tight_table(const TableHead& head, const std::vector<Row>& rows) {
    TableModel table{head, {}, {}};
    for (const auto& row : rows) table.rows.push_back(format_row(row, head));
    table.layout = tight_layout(head, table.rows);
    return table;
}

}  // namespace glint::engine::report
