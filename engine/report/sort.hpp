// engine/report/sort.hpp: the row order of a table under --sort-by.
#pragma once

#include <vector>

#include "engine/model/row.hpp"
#include "engine/report/reporter.hpp"

namespace glint::engine::report {

// `rows` in the order `sort` asks for. The sort is stable (ties keep measurement order);
// column "" keeps measurement order exactly (error rows too: a live table shows rows as they
// complete, and piped output must match it); "name" compares names; "n" the total iterations
// (samples × iterations per sample); "median", "mad", "min", "max" the timing summary; any
// other column is a catalog metric name (a row without that cell has no value). Rows without
// a value (NaN) follow the rows with one, and error rows come last, in either direction.
// An unknown column leaves every row without a value: measurement order (the CLI warns).
std::vector<Row> sorted_rows(std::vector<Row> rows, const SortSpec& sort);

}  // namespace glint::engine::report
