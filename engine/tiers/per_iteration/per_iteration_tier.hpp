// engine/tiers/per_iteration/per_iteration_tier.hpp: --per-iteration, every call bracketed on
// its own.
//
// A counting tier and run extension (engine/tiers/tier.hpp) whose pass reads {cycles,
// instructions} with <glint/hot.hpp> around every single call of the case, subtracts the median
// of empty calls bracketed the same way, and records the per-call costs in histograms. Its
// columns are the p50 and p99 of cycles and instructions per call; --histogram=GLOB prints the
// full distribution of matching cases after the last table and puts it in JSON meta.
//
// Only where reads make no system call (x86 rdpmc, arm64 mrs, inline or out of line): a
// read(2) per call would measure the apparatus, not the body. Where the group reads by read(2),
// or cannot open at all, open() refuses with the reason: a stderr note, no columns, the rest of
// the run unchanged (the same treatment as --perf on a host without counters). A case during
// whose pass any read fell back to read(2) gets — in its cells, and the count is in meta. A call
// during which the group was off the PMU (multiplexed out: hot::Delta::partial()) is left out
// of the distribution and counted in meta (descheduledCalls).
//
// The group is opened for each case's pass and closed after it, so it never counts (or takes
// PMU counters from) another tier's pass; open() opens it once to decide and closes it.
#pragma once

#include <glint/histogram.hpp>
#include <glint/hot.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/tiers/tier.hpp"

namespace glint::engine {

inline constexpr std::size_t kEmptyCalls = 63;  // empty calls per case, for the subtraction

using PerIterationGroup = hot::Group<2>;  // {cycles, instructions}
// Produces the group a pass reads (tests: one attached to an emulated PMU).
using GroupSource = std::function<std::unique_ptr<PerIterationGroup>()>;

// One case's per-call costs.
struct CallCosts {
    hot::Histogram cycles;
    hot::Histogram instructions;
    std::int64_t empty_cycles = 0;        // the median empty call, subtracted
    std::int64_t empty_instructions = 0;
    std::uint64_t clamped = 0;            // calls whose residue was negative (recorded as 0)
    std::uint64_t syscall_reads = 0;      // reads that fell back to read(2) during the pass
    std::uint64_t torn_fallbacks = 0;     // of those, because a page's seqlock never settled
    // Calls during which the group was off the PMU for a while (Delta::partial()): their counts
    // are short, so they are left out of the histograms and counted here.
    std::uint64_t descheduled = 0;
};

// Brackets `calls` calls of `work` one by one (per-call workloads: after() between calls,
// outside the brackets) after kEmptyCalls empty ones (a batch of 0 iterations, or an empty
// per-call body through the same virtual call). Exceptions from the user's code propagate.
void measure_calls(const PerIterationGroup& group, const Workload& work, std::uint64_t calls,
                   CallCosts& out);

// Why --per-iteration cannot run with a group that opened with `status`; "" when it can.
std::string refusal_reason(const hot::Status& status);

// The tier: begin_case() names the case (--histogram globs over its row name; notes, titles
// and JSON meta keys name it with its labels), trailer() prints the histograms of matching
// cases after the last table.
std::unique_ptr<CountingTier> make_per_iteration_tier(GroupSource source = {});

}  // namespace glint::engine
