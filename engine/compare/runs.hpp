// engine/compare/runs.hpp: the runs of each side as the unit of evidence for a row measured in
// several runs a side. Pure.
//
// Runs whose core ran slower than the row's fastest run are left out on both sides alike
// (screen_core_speed); of the others, a run its own measurement calls disturbed, or far slower
// than its side's, is left out with a note (keep_runs). The kept runs' medians give the row's
// change (Hodges–Lehmann ratio) and Moses' rank interval: at `level` when the counts reach it,
// else the widest one (every ratio) with the coverage it has. Why: docs/comparing.md, "Runs as
// evidence" and "Core states".
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace glint::engine {

// One run of one side of a row: its median and what the run saw while measuring the row.
struct RunEvidence {
    double median_ns = 0;
    std::vector<std::string> unstable;  // the row's unstable reasons in this run
    double cpu_wall = NAN;              // CPU/wall of the row's samples (nan: not measured)
    double slow_core_share = NAN;       // share of samples on a slowed core (nan: not probed)
    double core_step_ns = NAN;          // the core's speed in the pass (nan: not probed)
};

struct DroppedRun {
    bool base = true;     // which side
    std::size_t run = 0;  // 1-based, in the side's order
    std::string why;      // "preempted", "far slower than the side's other runs (+48%)", ...
};

// The runs of one side kept as evidence; `dropped` says which were left out and why.
struct KeptRuns {
    std::vector<double> medians;
    std::vector<DroppedRun> dropped;
};
// A run whose own measurement of the row says it was disturbed (an unstable reason other than
// "migrated" or "timer-resolution", CPU/wall below 0.9, over half its samples on a slowed core)
// or whose median lies above its side's median by more than the threshold and 3 scaled MADs:
// at most a quarter of the runs not `off_core` (why each was left out for its core's speed,
// "" where it was not), the slowest first, none of fewer than 4.
KeptRuns keep_runs(const std::vector<RunEvidence>& runs, bool base, double threshold,
                   const std::vector<std::string>& off_core = {});

// Why each run of each side is left out for its core's speed ("" where it is kept): a pass
// whose core step reads over kSlowCoreFactor above the fastest run's. Nothing is left out when
// a run was not probed or either side would keep fewer than kMinSameCoreRuns.
inline constexpr std::size_t kMinSameCoreRuns = 3;
struct CoreScreen {
    std::vector<std::string> base, next;
};
CoreScreen screen_core_speed(const std::vector<RunEvidence>& base,
                             const std::vector<RunEvidence>& next);

// Whether an unstable reason is evidence that the run was disturbed (slowed by something else).
bool disturbing_reason(const std::string& reason);

// The change between the kept runs: ratio b/a (Hodges–Lehmann of the logs), its rank interval
// and the interval's coverage. nullopt when a side has no run.
struct RunsInterval {
    double ratio = 0, low = 0, high = 0, coverage = 0;
};
std::optional<RunsInterval> runs_interval(const std::vector<double>& a,
                                          const std::vector<double>& b, double level);

}  // namespace glint::engine
