// engine/tiers/perf/compare_metrics.hpp: the --perf-read=compare columns, one set per read path.
//
// Compare mode counts each case twice, with the user-space path (kUserPathName, "rdpmc") and with
// the syscall path, and shows both side by side: what a body reads per iteration through each
// path (bracket cost subtracted) and what one bracket of each path costs (the mean of the empty
// brackets the pass interleaved: the apparatus a per-iteration bracket would add). With P one of
// rdpmc, syscall:
//   hardware group: instr@P "instr/iter P" and bracket-cycles@P "bracket cyc P" (default),
//                   cycles@P "cycles/iter P" and bracket-instr@P "bracket instr P"
//   software group: task-clock@P "task-clock ns/iter P", bracket-task-clock@P
//                   "bracket tc ns P" (both default)
// Outside compare mode every one is unavailable ("only with --perf-read=compare"); the user
// side is unavailable, with the path's reason, when the user path does not count. Cells are
// "count" cells, estimated when their pass was multiplexed. Pure: no OS access.
#pragma once

#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/tiers/perf/metrics.hpp"
#include "engine/counting/pass_math.hpp"

namespace glint::engine::perf {

struct CompareState {
    bool requested = false;       // --perf-read=compare
    bool user_counts = false;     // the user path was offered and counts
    std::string user_reason;      // why it does not
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
