// engine/compare/compare_html.hpp: a Comparison as the HTML report (report/html/): per row the
// base and each later median, the verdict (leading, so a 1400 px window shows it), the change
// and its interval, the repetition counts, the newest document's counter columns, and a plot
// of the newest document's samples over the base's. The title names each side once ("glint-compare:
// new.json vs base (4 runs: a1.json … a4.json)"), a note line gives a side's files in full; a
// median a side measured unstably is marked (report/html's "~") with its reasons.
#pragma once

#include "engine/compare/compare.hpp"
#include "engine/compare/compare_report.hpp"
#include "engine/report/html/html_report.hpp"

namespace glint::engine {

report::html::Report comparison_html(const Comparison& c, const CompareReportOptions& options);

// The cells of one change (verdict — the gate's outcome when `gated` —, HL change, interval
// with its basis and level), shared with the run's report.
void add_change_cells(std::vector<report::html::Cell>& cells, const RowChange& change,
                      const CompareSettings& settings, bool gated);
// Their columns, `suffix` appended to headers and keys (" #3" in a series).
void add_change_columns(std::vector<report::html::Column>& columns, bool gated,
                        const std::string& suffix);

// A side as people read it: its file's name, or "ROLE (N runs: first … last)" (`brief`: "ROLE
// (N runs)"); the paths in full are in RunDocument::files.
std::string side_label(const RunDocument& doc, const std::string& role, bool brief = false);
// A value cell's unstable mark from `row` (its reasons, what they mean in `doc`, in how many of
// the side's runs); nothing when the row is stable.
void mark_unstable(report::html::Cell& cell, const DocumentRow& row, const RunDocument& doc);

}  // namespace glint::engine
