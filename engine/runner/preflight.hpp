// engine/runner/preflight.hpp: what is checked against the cases themselves before anything is
// measured (the flags alone are checked in engine/cli/).
//
// - --filter that selects no case (by the filter's own predicate, engine/runner/case_filter):
//   the problem, with the closest case names (edit distance).
// - --sort-by naming no column of the run (the timing columns and the metric columns the
//   tables show): the problem, with the run's columns and the fix (sort_column_problem).
// - --group-by naming a key no selected case has among its labels: the problem, with the keys.
// Case names, labels and client metrics of bench_cases are known only by running the bodies
// without measuring (discover_cases); that happens only when the names of the registrations
// alone cannot settle the question, and through `discover` (in a child under --isolate).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/cli/run_plan.hpp"
#include "engine/runner/modes/plain_run.hpp"

namespace glint::engine {

// The bench_cases of the bodies `options` selects; nullopt when they could not be run.
using Discover = std::function<std::optional<std::vector<DiscoveredCase>>(const CaseRun& cases)>;

// --filter; for both modes. Returns the problem (one line) or nullopt.
std::optional<std::string> check_filter(const CaseRun& cases, const Discover& discover);

// --sort-by and --group-by, against `catalog` (the tiers' metrics and the baseline's) and the
// run's column selection (TierSet::selection()).
std::optional<std::string> check_table_keys(const CaseRun& cases, const Measuring& measuring,
                                            const TableLayout& table,
                                            const std::vector<catalog::MetricDescriptor>& catalog,
                                            const std::vector<std::string>& selection,
                                            const Discover& discover);

// --sort-by=[-]COLUMN against the run's columns: name, n, median, mad, min, max and the metrics
// of `catalog` that `selection` shows. The problem names only those columns, and the fix: a
// close name (a typo or two), --metrics for a measured metric the tables do not show, the
// reason for one not measured. nullopt: a column of the run.
std::optional<std::string> sort_column_problem(
    const TableLayout& table, const std::vector<catalog::MetricDescriptor>& catalog,
    const std::vector<std::string>& selection);

// Up to `count` of `names` closest to `query`, closest first (ties in the given order).
std::vector<std::string> closest_names(const std::string& query,
                                       const std::vector<std::string>& names, std::size_t count);

}  // namespace glint::engine
