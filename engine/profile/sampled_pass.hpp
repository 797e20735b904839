// engine/profile/sampled_pass.hpp: the sampling pass of one case.
//
// It runs after the case's timing and counting passes and perturbs neither: it re-runs the
// case's compiled work under an open (disabled) Sampler, enabled only around the work itself.
// Batched cases run batch.run(ctx, n) in chunks whose n doubles until a chunk takes about
// kChunkNs; per-call cases run timed() with the sampler enabled and after() with it disabled
// (after() is outside the sampled window, as it is outside the timed one). The ring is drained
// between chunks (and between calls). The pass ends once `samples` samples were parsed or
// `time_ns` of wall time has passed, whichever comes first (at least one chunk or call runs).
//
// The work is called from one call instruction in each of two entry functions (never inlined),
// so a stack can be cut exactly where it enters the case: at the return address of that call,
// which entry_returns() finds by calling a probe through the same instruction (no symbols
// needed: a stripped binary is cut as exactly).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/tiers/tier.hpp"
#include "os/sampling.hpp"

namespace glint::engine::profile {

inline constexpr double kChunkNs = 2e6;  // one batched chunk, between drains

struct PassLimits {
    std::uint64_t samples = 2000;  // --profile-samples
    double time_ns = 1e9;          // --profile-time (ms), as ns
};

struct PassOutcome {
    std::uint64_t wall_ns = 0;     // the whole pass, drains included: its cost
    std::uint64_t iterations = 0;  // batched iterations or per-call calls run while sampled
    bool time_bound = false;       // the time bound ended it before the sample target
    os::SamplerTimes times;        // the event's enabled/running time over the pass
    bool times_ok = false;
};

// Runs the pass. `sampler` is open and disabled; it is disabled again on return and on every
// exception (exceptions from the user's code propagate; CaseFailure from after() too).
PassOutcome run_sampled(const Workload& work, os::Sampler& sampler, const PassLimits& limits,
                        const os::SampleSink& sink);

// The return addresses of the calls the pass makes into the case's code (batched, per-call).
std::vector<std::uint64_t> entry_returns();

}  // namespace glint::engine::profile
