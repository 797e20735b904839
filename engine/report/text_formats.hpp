// engine/report/text_formats.hpp: --bench-format=md|csv, the run's tables as markdown or CSV
// instead of the box table (each table printed once, at the end of its group, sorted as
// --sort-by asks; no escape codes).
//
// md: the run header as plain lines, then per table an optional "#### title" line and a
//   markdown table with the box table's columns and cell texts (error rows: the message in the
//   n column).
// csv: the run header as "# " comment lines, then per table (blank line between tables, the
//   title as a "# " line) a header line `benchmark,registration,samples,iterations,median_ns,
//   mad_ns,min_ns,max_ns,<metric names>,error` and one line per row with raw numbers
//   (nanoseconds per iteration, metric values unscaled; empty when not measured). Fields are
//   quoted as RFC 4180 asks (a comma, quote or newline inside).
#pragma once

#include <cstdio>
#include <memory>
#include <string>

#include "engine/report/reporter.hpp"

namespace glint::engine {

// `format` is "md" or "csv".
std::unique_ptr<TableReporter> make_text_format_reporter(std::FILE* out, const std::string& format,
                                                         SortSpec sort);

}  // namespace glint::engine
