// engine/runner/modes/deleted_probe.hpp: test mode's check for an iter the compiler deleted.
// The one call of a plain batch without inputs is timed; one under 20 us is run again with
// doubling iterations until a call takes 20 us; one that never does by 2^26 iterations costs
// under timing/protocol.hpp's kOptimizedAwayNs (1 ps) an iteration, --bench's rule: it throws
// OptimizedAway. A real body adds at most ~40 us of its own work; a slower one runs once.
#pragma once

#include <glint/bench.hpp>

namespace glint::engine {

// Runs `batch` once as test mode does (a batch with inputs, a reference or its own timing, or
// a window cap, and any batch when the probe is off, runs once unprobed).
void run_probing_deleted(const glint::detail::Batch& batch);

// `on` false (the Google Benchmark drop-in's --benchmark_dry_run: each instance once, as Google
// Benchmark runs it) runs each call once, unprobed.
void set_plain_deleted_probe(bool on);

}  // namespace glint::engine
