// engine/profile/sampled_pass.hpp: the sampling pass of one case.
//
// Runs after the case's timing and counting passes and perturbs neither. The sampler is enabled
// only around the case's work (setup of iter_batched inputs is never sampled); a stack is cut at
// the case's entry (entry_returns()), and samples of glint's own code (pass_code()) or of a
// grouped window's after() are dropped and counted. Ends once `samples` samples were parsed or
// `time_ns` of wall time passed (at least one chunk or call runs).
// Rationale and details: docs/rationale.md, "engine/profile/sampled_pass.hpp".
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
