// engine/report/text_formats.hpp: --bench-format=md|csv, the run's tables as markdown or CSV
// (each table printed once at the end of its group, sorted as --sort-by asks; no escape codes).
// md: the run header in a fenced block, then per table an optional "#### title" and a markdown
// table with the box table's cells (and its unstable column). csv: the header as "# " lines, then
// per table a header line (benchmark, registration, one column per parameter, samples,
// iterations, median_ns, mad_ns, min_ns, max_ns, mean_ns, stddev_ns, cv, metrics, error,
// unstable: every reason's code, space-separated) and raw numbers, empty when not measured;
// quoted as RFC 4180 asks.
// Rationale and details: docs/rationale.md, "engine/report/text_formats.hpp".
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
