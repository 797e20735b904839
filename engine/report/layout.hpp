// engine/report/layout.hpp: the column widths of a table and the decimal-point alignment of
// its numeric cells. Pure functions; the renderer and both reporters share them.
//
// A numeric column reserves an aligned block: `left` columns before the decimal point and
// `right` columns from the point on (see split_at_point). Every cell of the column is placed
// in that block, so the points line up, and the block is right-aligned in the column's
// `width` (which may exceed left + right, for a wide header or a widened last column).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/model/row.hpp"

namespace glint::engine::report {

// What a table shows above its rows.
struct TableHead {
    std::string title;                               // rides in the top border; "" for none
    std::string first_column = "benchmark";          // label of the (left-aligned) name column
    std::vector<catalog::MetricDescriptor> metrics;  // one column each, after n/median/min/max
    // Other tables (glint-compare's): these numeric column labels replace n, median/iter, min,
    // max and the metrics; the caller formats each row's cells itself.
    std::vector<std::string> columns;
};

// The labels of the numeric columns: "n", "median/iter", "min", "max", then metric headers
// (each sanitize::terminal's).
std::vector<std::string> numeric_headers(const TableHead& head);

// The prefix of an unstable row's median cell ("~0.49ns ±0.00ns").
inline constexpr const char* kUnstableMark = "~";
// A table with an unstable row has one more column, left-aligned, after median/iter: each
// unstable row's reason codes ("cpu,mig"; engine/model/unstable_codes.hpp).
inline constexpr const char* kUnstableHeader = "unstable";
inline constexpr std::size_t kUnstablePosition = 2;  // its place among the numeric columns

// One row as text, before alignment.
struct FormattedRow {
    std::string name;
    std::vector<std::string> cells;    // one per numeric column (empty on an error row)
    std::vector<catalog::Tone> tones;  // per cell, as cells; what a coloured table paints
    std::string reasons;               // the unstable column's cell; "" for a stable row
    std::optional<std::string> error;  // an error row: one message spanning the numeric columns
};

// A row's text: NaN timing or metric values and metric cells the row lacks render "—"; an
// unstable row's median cell starts with kUnstableMark and its codes fill `reasons`.
FormattedRow format_row(const Row& row, const TableHead& head);

struct ColumnWidth {
    std::size_t left = 0;   // columns before the decimal point, in the aligned block
    std::size_t right = 0;  // columns from the point on
    std::size_t width = 0;  // the column's content width, >= left + right
};

struct Layout {
    std::size_t name = 0;              // content width of the name column
    std::vector<ColumnWidth> numeric;  // one per numeric column
    std::size_t unstable = 0;          // content width of the unstable column; 0: none
};

// The content widths of the columns after the name column, in display order (the unstable
// column, when there is one, at kUnstablePosition).
std::vector<std::size_t> column_widths(const Layout& layout);

// Tight widths: the narrowest layout that holds the headers, the rows and the title.
Layout tight_layout(const TableHead& head, const std::vector<FormattedRow>& rows);

// Widths pinned before measuring, so no live frame resizes: the name column holds the header
// and every expected name; each numeric column holds its worst-case value ("32×16777216",
// "~999.99ns ±999.99ns", "999.99ns", and for metrics "≈999.99k", "≈999.99", "≈100.00%").
// A value beyond that (seconds past 999.9s, a huge count of samples) does not fit: see fits().
Layout pinned_layout(const TableHead& head, const std::vector<std::string>& expected_names);

// Whether `row` renders in `layout` without widening any column. Error messages always fit
// (they are truncated).
bool fits(const Layout& layout, const FormattedRow& row);

// `layout` widened (never narrowed) to hold `row` and the title. An unstable column it adds is
// kReservedCodes wide at least (three long codes), so a live table that widened for its first
// unstable row rarely opens another segment for the next.
inline constexpr const char* kReservedCodes = "spread,split,delay";
Layout widened(Layout layout, const FormattedRow& row, const TableHead& head);

// Display width of every line of a table with this layout.
std::size_t table_width(const Layout& layout);

// Content width of the cell an error message spans (all numeric columns and their joins).
std::size_t error_span_width(const Layout& layout);

// `cell` placed in its column: aligned on its decimal point, padded to the column's width.
std::string align_numeric(const ColumnWidth& column, std::string_view cell);

}  // namespace glint::engine::report
