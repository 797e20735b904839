// engine/tiers/simulated/simulated_tier.hpp: --simulate, counts on Callgrind's simulated CPU.
//
// Inside a run --simulate re-executed under Callgrind, each pass is two collections: windows of
// w iterations, then the same number of windows of 2w (per-call cases: N, then 2N single calls),
// each window between two CALLGRIND_TOGGLE_COLLECTs, after the longer shape as a warm-up and a
// CALLGRIND_ZERO_STATS, then CALLGRIND_DUMP_STATS_AT; `iter_batched` inputs are made outside.
// Per iteration = (second − first − extra windows × empty bracket) / extra iterations: exact, the
// loop's constant and the bracket cancel. Columns sim-* (header "sim:"), source "simulated".
// Multi-threaded rows read — (collection is per thread). Elsewhere: unavailable, with why.
// Rationale and measurements: docs/simulated.md.
#pragma once

#include <memory>

#include "engine/tiers/tier.hpp"

namespace glint::engine {

std::unique_ptr<CountingTier> make_simulated_tier();

}  // namespace glint::engine
