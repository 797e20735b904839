// engine/timing/protocol.hpp: the timing pass (Rust libtest's Bencher shape, seed 001).
//
// Batched: the iterations per sample double until one sample takes >= min_time (unless
// pinned), then `samples` samples of that many iterations; statistics in ns per iteration.
// The loop itself is the case's compiled batch (the body inlined), so a one-cycle body reads
// about one cycle. A batch with inputs (glint::iter_batched) is timed per window
// (timing/windows.hpp): its inputs built untimed, each window timed alone, the clock's empty
// bracket subtracted per window, windows sized from the latest sample's time per iteration
// (pinned: from a probe of up to 16 calls first); the doubling also stops when a sample's wall
// time, setup included, reaches wall_budget_ns / samples.
// Per-call: one timed call per sample, `after` untimed in between; sampling continues past
// `samples` until the measured time reaches min_time (or exactly `pinned` calls). The clock's
// empty-bracket cost is subtracted from each per-call sample (clamped at 0).
// CPU time: batched samples read the thread's CPU clock once between consecutive samples (one
// extra read per sample, outside the timed windows); per-call sampling reads it once before
// and once after the loop. TimingSummary::sample_cpu_ns / cpu_ns / wall_ns hold the result.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>

#include <glint/bench.hpp>

#include "engine/model/row.hpp"

namespace glint::engine {

struct TimingConfig {
    double min_time_ns = 5e6;        // --bench-min-time
    std::uint64_t samples = 32;
    std::uint64_t pinned = 0;        // iterations per sample (batched) / timed calls (per call)
    bool warm_up = false;            // batched: one untimed sample before the samples, run as
                                     // they are (windows of inputs prepared first)
    bool refuse_optimized_away = true;  // batched: throw OptimizedAway (below)
    double wall_budget_ns = 1e9;     // per-call: stop adding samples past 32 after this long;
                                     // batched with inputs: / samples caps a sample's wall time
    std::function<void()> progress;  // called between samples' phases (never while timing)
    // Called once right before the first counted sample (after the doubling and any
    // progress call): where observations of the samples (engine/stability/) begin.
    std::function<void()> before_samples;
    // Called between samples, never while timing; it may throw to abandon the case (the run
    // is being interrupted).
    std::function<void()> checkpoint;
};

// A batched case whose body the compiler deleted (glint::iter([] {})) is refused, never reported
// as a measurement. The rule: a time per iteration below kOptimizedAwayNs (1 ps: 200 iterations
// a cycle at 5 GHz, more than any core retires), which shows first as the iterations per sample
// running away to 2^40 without one sample reaching min_time. iter_batched windows have the
// clock's empty bracket subtracted, so a deleted fn leaves only the clock's noise: a median
// window whose timed part is below half that bracket is refused too (a real fn whose windows are
// that short cannot be timed either). Per-call samples (bench_case) keep their call and are
// never refused: below the bracket they read as not resolved.
inline constexpr double kOptimizedAwayNs = 0.001;
struct OptimizedAway : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Iterations per sample: doubles from 1 until sample(n) (ns for n iterations) >= min_time.
std::uint64_t double_until(const std::function<double(std::uint64_t)>& sample, double min_time_ns);

TimingSummary time_batched(const glint::detail::Batch& batch, const TimingConfig& config);

// `after_one` runs after each timed call, outside the timed window; it throws on failure.
TimingSummary time_per_call(glint::detail::PerCall& call, const std::function<void()>& after_one,
                            const TimingConfig& config);

// The summary of a set of per-iteration samples.
TimingSummary summarize_samples(std::vector<double> sample_ns, std::uint64_t iterations,
                                bool per_call);

}  // namespace glint::engine
