// engine/profile/sampled_pass.hpp: the sampling pass of one case.
//
// It runs after the case's timing and counting passes and perturbs neither: it re-runs the
// case's compiled work under an open (disabled) Sampler, enabled only around the work itself.
// Batched cases run batch.run(ctx, n) in chunks whose n doubles until a chunk takes about
// kChunkNs. A batch with inputs (glint::iter_batched) runs each chunk as windows of at most
// `window` iterations, each window's inputs built with the sampler disabled, so setup is never
// sampled; its chunks' time includes setup, so they stay short when setup is costly. Per-call
// cases start by toggling the sampler around each timed() call, with after() unsampled (outside
// the sampled window, as it is outside the timed one); once a toggle pair is seen to cost more
// than after() (choose_call_sampling), the calls are grouped: timed() and after() alternate
// between one enable and one disable, as many calls per window as fill about kChunkNs, so the
// toggles' cost is spread over many calls; after()'s samples are then recognised by its own
// entry's return address and dropped (StackBuilder). The ring is drained between windows.
// The pass ends once `samples` samples were parsed or `time_ns` of wall time has passed,
// whichever comes first (at least one chunk or call runs).
//
// The work is called from one call instruction in each of two entry functions (never inlined),
// so a stack can be cut exactly where it enters the case: at the return address of that call,
// which entry_returns() finds by calling a probe through the same instruction (no symbols
// needed: a stripped binary is cut as exactly). Everything else the pass runs while sampling is
// in its own code section (pass_code()), so glint's samples of itself are recognised and dropped.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "engine/counting/workload.hpp"
#include "os/sampling.hpp"

namespace glint::engine::profile {

inline constexpr double kChunkNs = 2e6;  // one batched chunk, between drains

struct PassLimits {
    std::uint64_t samples = 2000;  // --profile-samples
    double time_ns = 1e9;          // --profile-time (ms), as ns
};

// How a per-call case is sampled: a toggle pair around each timed() call, or many calls (with
// their after()) between one toggle pair.
enum class CallSampling { each_call, grouped };

// Grouped when after() costs less than a toggle pair: the sampled window then holds more of
// timed() than when the toggles bracket each call (timed/(timed+after) > timed/(timed+toggle)).
CallSampling choose_call_sampling(double after_ns, double toggle_ns);

struct PassOutcome {
    std::uint64_t wall_ns = 0;     // the whole pass, drains included: its cost
    std::uint64_t iterations = 0;  // batched iterations or per-call calls run while sampled
    bool time_bound = false;       // the time bound ended it before the sample target
    os::SamplerTimes times;        // the event's enabled/running time over the pass
    bool times_ok = false;
    // Per-call cases: how they were sampled, and the cheapest enable+disable pair and after()
    // seen (nan: not measured, as in batched cases).
    CallSampling call_sampling = CallSampling::each_call;
    double toggle_ns = std::numeric_limits<double>::quiet_NaN();
    double after_ns = std::numeric_limits<double>::quiet_NaN();
};

// Runs the pass. `sampler` is open and disabled; it is disabled again on return and on every
// exception (exceptions from the user's code propagate; CaseFailure from after() too).
PassOutcome run_sampled(const Workload& work, os::Sampler& sampler, const PassLimits& limits,
                        const os::SampleSink& sink, std::uint64_t window = 1);

// The return addresses of the calls the pass makes into the case's code (batched, per-call).
std::vector<std::uint64_t> entry_returns();

// What tells the case's samples from glint's: the entries above; the return address of the call
// into after() in grouped windows; the pass's own code while sampling; the sampler's toggles.
struct PassCode {
    std::vector<std::uint64_t> entries;
    std::vector<std::uint64_t> after;
    os::CodeRange pass;
    os::CodeRange toggle;
};
PassCode pass_code();

}  // namespace glint::engine::profile
