// engine/tiers/perf/compare_metrics.hpp: the --perf-read=compare columns, one set per read path
// P (rdpmc, syscall): per-iteration counts through P and the cost of one empty bracket of P
// (hardware group: instr@P and bracket-cycles@P by default, cycles@P and bracket-instr@P too;
// software group: task-clock@P, bracket-task-clock@P). Outside compare mode all are
// unavailable; the user side is unavailable, with the reason, when the user path does not
// count. Count cells, estimated when their pass was multiplexed. Pure: no OS access.
// Rationale and details: docs/rationale.md, "engine/tiers/perf/compare_metrics.hpp".
#pragma once

#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/counting/pass_math.hpp"
#include "engine/tiers/perf/metrics.hpp"

namespace glint::engine::perf {

struct CompareState {
    bool requested = false;    // --perf-read=compare
    bool user_counts = false;  // the user path was offered and counts
    std::string user_reason;   // why it does not
};

// One path's pass as the compare cells read it.
struct PathPass {
    bool ran = false;
    PerIteration per_iteration;  // values per member, bracket cost subtracted
    BracketCost cost;            // what one bracket cost in that pass (per member)
};

std::vector<catalog::MetricDescriptor> compare_family(const FamilyState& state,
                                                      const CompareState& compare);

// The compare cells of a row (only the metrics of the group's kind).
std::vector<catalog::MetricCell> compare_cells(const FamilyState& state,
                                               const CompareState& compare, const PathPass& user,
                                               const PathPass& syscall);

}  // namespace glint::engine::perf
