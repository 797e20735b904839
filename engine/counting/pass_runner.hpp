// engine/counting/pass_runner.hpp: one counting pass, with its bracket cost measured inside.
//
// The pass brackets the workload in brackets of plan.batch iterations (per-call workloads: one
// timed() call per bracket, after() between brackets, outside every window; a batch with
// inputs has each bracket's inputs built before it, outside the bracket) and interleaves
// empty brackets among them: one per kEmptyEvery body brackets, at least kMinPassEmpties,
// spread evenly. The mean of those empty brackets is what the pass subtracts: the cost of a
// syscall bracket drifts (its task-clock moved by up to ~25% between blocks of brackets on the
// VM this was built on), so a cost measured at open is not the cost inside a later pass, and
// with --perf-batch=1 the body is a fraction of a percent of each bracket.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/counting/batch_math.hpp"
#include "engine/counting/pass_math.hpp"
#include "engine/counting/read_path.hpp"
#include "engine/counting/workload.hpp"

namespace glint::engine::counting {

inline constexpr std::uint64_t kEmptyEvery = 8;
inline constexpr std::uint64_t kMinPassEmpties = 31;

struct PassOutcome {
    PassTotals totals;                // the body's brackets only
    BracketCost cost;                 // mean of the interleaved empty brackets (mean_cost)
    BracketSeries series;             // each body bracket (batch_math.hpp)
    std::vector<GroupDelta> empties;  // each interleaved empty bracket
    std::uint64_t batch = 1;          // iterations per full body bracket
};

// How many empty brackets a pass of `brackets` body brackets interleaves.
std::uint64_t pass_empties(std::uint64_t brackets);

// Runs the pass. totals.ok is false when the pass could not start or any bracket failed.
// Exceptions from the workload propagate (the path stops the group first).
PassOutcome run_pass(ReadPath& path, const Workload& work, const PassPlan& plan);

// The pass's per-iteration values, combined robustly when it can be (combine_pass); `fallback`
// is subtracted when the interleaved empty brackets could not be read.
CombinedPass combine(const PassOutcome& pass, std::uint64_t iterations,
                     const BracketCost& fallback);

}  // namespace glint::engine::counting
