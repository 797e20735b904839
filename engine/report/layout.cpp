#include "engine/report/layout.hpp"

#include <algorithm>

#include "engine/model/sanitize.hpp"
#include "engine/model/unstable_codes.hpp"
#include "engine/report/text.hpp"
#include "engine/report/units.hpp"

namespace glint::engine::report {

namespace {

// The border characters around the title: "──╼ " + title + " ╾".
constexpr std::size_t kTitleDecoration = 6;

// Each column costs its content plus one space either side, plus one border glyph; the table
// adds the closing border glyph.
std::size_t column_cost(std::size_t content) { return content + 3; }

void hold_row(Layout& layout, const FormattedRow& row) {
    layout.name = std::max(layout.name, display_width(row.name));
    if (row.error) return;
    if (!row.reasons.empty())
        layout.unstable =
            std::max({layout.unstable, display_width(kUnstableHeader), display_width(row.reasons)});
    for (std::size_t i = 0; i < row.cells.size() && i < layout.numeric.size(); ++i) {
        ColumnWidth& column = layout.numeric[i];
        PointSplit split = split_at_point(row.cells[i]);
        column.left = std::max(column.left, split.left);
        column.right = std::max(column.right, split.right);
        column.width = std::max(column.width, column.left + column.right);
    }
}

// The top border must hold "╭" + decorated title + at least one "─" + "╮"; the last column
// absorbs any shortfall.
void hold_title(Layout& layout, const TableHead& head) {
    if (head.title.empty() || layout.numeric.empty()) return;
    std::size_t needed = display_width(head.title) + kTitleDecoration + 3;
    std::size_t total = table_width(layout);
    if (total < needed) layout.numeric.back().width += needed - total;
}

Layout header_layout(const TableHead& head) {
    Layout layout;
    layout.name = display_width(head.first_column);
    for (const auto& header : numeric_headers(head))
        layout.numeric.push_back(ColumnWidth{0, 0, display_width(header)});
    return layout;
}

const char* worst_case_metric(catalog::Format format) {
    switch (format) {
        case catalog::Format::count:
            return "≈999.99k";
        case catalog::Format::ratio:
            return "≈999.99";
        case catalog::Format::percent:
            return "≈100.00%";
        case catalog::Format::change:
            return "≈+100.00%";
        case catalog::Format::nanoseconds:
            return "≈999.99ns";
    }
    return "≈999.99k";
}

}  // namespace

std::vector<std::string> numeric_headers(const TableHead& head) {
    std::vector<std::string> headers;
    if (!head.columns.empty()) {
        for (const auto& column : head.columns) headers.push_back(sanitize::terminal(column));
        return headers;
    }
    headers = {"n", "median/iter", "min", "max"};
    for (const auto& metric : head.metrics) headers.push_back(sanitize::terminal(metric.header));
    return headers;
}

FormattedRow format_row(const Row& row, const TableHead& head) {
    FormattedRow out;
    out.name = sanitize::terminal(row.name);
    if (row.error || !row.timing) {
        out.error = sanitize::terminal(row.error.value_or("no timing"));
        return out;
    }
    const TimingSummary& timing = *row.timing;
    // An unstable row's median carries "~" (as nanobench marks them; the footer says why).
    const bool unstable = row.stability && !row.stability->unstable.empty();
    out.cells = {format_n(timing), (unstable ? kUnstableMark : "") + format_median_mad(timing),
                 format_sample_ns(timing, timing.min_ns), format_sample_ns(timing, timing.max_ns)};
    out.tones.assign(out.cells.size(), catalog::Tone::neutral);
    for (const auto& metric : head.metrics) {
        const catalog::MetricCell* cell = row.cell(metric.name);
        out.cells.push_back(cell ? format_metric(*cell) : kNotMeasuredText);
        out.tones.push_back(cell && cell->measured() ? cell->tone : catalog::Tone::neutral);
    }
    if (unstable) out.reasons = sanitize::terminal(unstable_cell(row.stability->unstable));
    return out;
}

Layout tight_layout(const TableHead& head, const std::vector<FormattedRow>& rows) {
    Layout layout = header_layout(head);
    for (const auto& row : rows) hold_row(layout, row);
    hold_title(layout, head);
    return layout;
}

Layout pinned_layout(const TableHead& head, const std::vector<std::string>& expected_names) {
    Layout layout = header_layout(head);
    FormattedRow worst;
    worst.cells = {"32×16777216", std::string(kUnstableMark) + "999.99ns ±999.99ns", "999.99ns",
                   "999.99ns"};
    for (const auto& metric : head.metrics) worst.cells.push_back(worst_case_metric(metric.format));
    hold_row(layout, worst);
    for (const auto& name : expected_names)
        layout.name = std::max(layout.name, display_width(sanitize::terminal(name)));
    hold_title(layout, head);
    return layout;
}

bool fits(const Layout& layout, const FormattedRow& row) {
    if (display_width(row.name) > layout.name) return false;
    if (row.error) return true;
    if (!row.reasons.empty() && display_width(row.reasons) > layout.unstable) return false;
    for (std::size_t i = 0; i < row.cells.size() && i < layout.numeric.size(); ++i) {
        PointSplit split = split_at_point(row.cells[i]);
        if (split.left > layout.numeric[i].left || split.right > layout.numeric[i].right)
            return false;
    }
    return true;
}

Layout widened(Layout layout, const FormattedRow& row, const TableHead& head) {
    if (layout.unstable == 0 && !row.reasons.empty() && !row.error)
        layout.unstable = display_width(kReservedCodes);
    hold_row(layout, row);
    hold_title(layout, head);
    return layout;
}

std::vector<std::size_t> column_widths(const Layout& layout) {
    std::vector<std::size_t> widths;
    for (const auto& column : layout.numeric) widths.push_back(column.width);
    if (layout.unstable > 0)
        widths.insert(widths.begin() +
                          static_cast<std::ptrdiff_t>(std::min(kUnstablePosition, widths.size())),
                      layout.unstable);
    return widths;
}

std::size_t table_width(const Layout& layout) {
    std::size_t total = 1 + column_cost(layout.name);
    for (const std::size_t width : column_widths(layout)) total += column_cost(width);
    return total;
}

std::size_t error_span_width(const Layout& layout) {
    if (layout.numeric.empty()) return 0;
    std::size_t span = 0;
    for (const std::size_t width : column_widths(layout)) span += column_cost(width);
    return span - 3;  // the span's own padding and closing border are not content
}

std::string align_numeric(const ColumnWidth& column, std::string_view cell) {
    PointSplit split = split_at_point(cell);
    std::string block;
    if (split.left < column.left) block.append(column.left - split.left, ' ');
    block += cell;
    if (split.right < column.right) block.append(column.right - split.right, ' ');
    return pad_left(block, column.width);
}

}  // namespace glint::engine::report
