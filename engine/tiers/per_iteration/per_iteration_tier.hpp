// engine/tiers/per_iteration/per_iteration_tier.hpp: --per-iteration, every call bracketed.
//
// A counting tier and run extension: reads {cycles, instructions} with <glint/hot.hpp> around
// each call, subtracts the median of empty calls, and reports p50 and p99 per call
// (--histogram=GLOB: the full distribution, text and JSON meta). Only where reads make no system
// call: otherwise open() refuses with the reason and the run goes on. A case whose reads fell
// back to read(2) gets "—"; a call off the PMU is left out and counted (descheduledCalls).
// The group is open only during the case's own pass.
// Rationale and details: docs/rationale.md, "engine/tiers/per_iteration/per_iteration_tier.hpp".
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
    std::int64_t empty_cycles = 0;  // the median empty call, subtracted
    std::int64_t empty_instructions = 0;
    std::uint64_t clamped = 0;         // calls whose residue was negative (recorded as 0)
    std::uint64_t syscall_reads = 0;   // reads that fell back to read(2) during the pass
    std::uint64_t torn_fallbacks = 0;  // of those, because a page's seqlock never settled
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
