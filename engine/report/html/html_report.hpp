// engine/report/html/html_report.hpp: one self-contained HTML file (--bench-html,
// glint-compare --html): no network, no external library; opened from disk it shows
//   - a title and note lines (the run header, or the comparison's summary lines),
//   - one table, sortable by any column (click a header; a "#sort=KEY" or "#sort=-KEY" URL
//     fragment sorts on load; rows without a value sort last either way),
//   - per row a distribution plot (svg_plot.hpp; the baseline's in its own lane when comparing),
//   - counter columns beside the timing columns; a value from an unstable measurement reads
//     "~VALUE" with its reasons' codes under it (the table's) and their meaning as its tooltip.
// Every row is a <tr class="row" data-verdict="..."> holding exactly one <svg class="dist">;
// each value cell is a <td data-col="KEY" data-sort="NUMBER"> (data-sort absent: no value).
// A row's `extra_html` (e.g. a flame graph) fills a <tr class="extra"> beneath it, full width.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "os/files.hpp"

namespace glint::engine::report::html {

struct Column {
    std::string key;      // the #sort= key (e.g. "median", "instr", "verdict")
    std::string header;   // as shown
    bool numeric = true;  // right-aligned
};

struct Cell {
    std::string text;  // as shown ("—" when not measured)
    double sort = 0;   // the sort key of a numeric cell (nan: no value, sorts last)
    bool has_sort = false;
    std::vector<std::string> unstable;  // why the value is unstable (reasons); empty: stable
    std::string unstable_title;         // the tooltip: what the reasons mean ("" -> the reasons)
};

struct Row {
    std::string name;                     // the identity as text
    std::vector<Cell> cells;              // one per column
    std::vector<double> samples_ns;       // the distribution plotted (ns per iteration)
    std::vector<double> base_samples_ns;  // the baseline's, overlaid (empty: no overlay)
    std::string verdict;     // "faster", "slower", "same", "noisy" or "" (colours the row)
    std::string extra_html;  // trusted markup in a full-width row beneath this one
};

struct Report {
    std::string title;
    std::vector<std::string> notes;
    std::vector<Column> columns;
    std::vector<Row> rows;
    std::string sample_label = "this run";  // the plot legend's names for the two lanes
    std::string base_label = "baseline";
};

// sanitize::html(text): element text or a quoted attribute value (controls made visible).
std::string escape(const std::string& text);

// The whole page.
std::string render_page(const Report& report);

// Writes the page to `target` (os/files.hpp: a regular file is replaced whole); the error line
// on failure.
std::optional<std::string> write_page(const os::OutputTarget& target, const Report& report);

}  // namespace glint::engine::report::html
