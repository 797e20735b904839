// engine/compare/compare_html.hpp: a Comparison as the HTML report (report/html/): per row the
// base and each later median, the change, its interval and verdict, the repetition counts, the
// newest document's counter columns, and a plot of the newest document's samples over the
// base's.
#pragma once

#include "engine/compare/compare.hpp"
#include "engine/compare/compare_report.hpp"
#include "engine/report/html/html_report.hpp"

namespace glint::engine {

report::html::Report comparison_html(const Comparison& c, const CompareReportOptions& options);

// The cells of one change (change, interval, verdict), shared with the run's report.
void add_change_cells(std::vector<report::html::Cell>& cells, const RowChange& change);
// Their columns, `suffix` appended to headers and keys (" #3" in a series).
void add_change_columns(std::vector<report::html::Column>& columns, const CompareSettings& settings,
                        const std::string& suffix);

}  // namespace glint::engine
