// engine/tiers/pass_plan.hpp: sizing a counting pass from its timing pass.
//
// iterations: --perf-iters, or the timing pass's iterations per sample (per-call: its sample
// count), capped at kMaxCountIterations. batch: --perf-batch, or the iterations that fill about
// one millisecond at the timed median, fewer when that leaves under 64 brackets (a 64th of the
// pass, but at least 50 us), clamped to [1, iterations]; per-call workloads are never batched
// (their `after` runs between calls).
#pragma once

#include <cstdint>

#include "engine/model/row.hpp"
#include "engine/tiers/request.hpp"
#include "engine/tiers/tier.hpp"

namespace glint::engine {

inline constexpr std::uint64_t kMaxCountIterations = 100000;
inline constexpr double kTargetBracketNs = 1e6;

PassPlan plan_pass(const TimingSummary& timing, const PassSizing& sizing);

}  // namespace glint::engine
