// engine/timing/protocol.hpp: the timing pass (Rust libtest's Bencher shape).
//
// Batched: iterations per sample double until a sample takes >= min_time (unless pinned), then
// `samples` samples; ns per iteration. Batches with inputs are timed per window
// (timing/windows.hpp), setup untimed; the doubling also stops at wall_budget_ns / samples.
// Per-call: one timed call per sample, `after` untimed, the clock's empty bracket subtracted
// (clamped at 0), until `samples` calls and kPerCallTotalFactor x min_time are both measured
// (or exactly `pinned` calls). CPU time is read outside the timed windows (sample_cpu_ns,
// cpu_ns, wall_ns); the headline drops samples that lost the CPU, retaking short samples under
// contention. A batch with a reference is timed by the difference method (docs/asm.md).
// Rationale and details: docs/rationale.md, "engine/timing/protocol.hpp".
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>

#include <glint/bench.hpp>

#include "engine/model/row.hpp"

namespace glint::engine {

// min_time's default (--bench-min-time's): a sample well inside a timer tick's period (4 ms at
// 250 Hz), so most samples hold no interrupt and their median is the code's own time
// (docs/load.md, "Sample length").
inline constexpr double kDefaultMinTimeNs = 2.5e5;

// Per-call cases measure at least this many times min_time in total (5 ms at the default):
// a per-call sample is one call, so the total sets how many samples the median has.
inline constexpr double kPerCallTotalFactor = 20;

// Per call, the core-speed probe (about 1 µs) runs between calls each time this much more has
// been timed: about 100 probes at the default total, 2% more wall time.
inline constexpr double kPerCallProbeNs = 5e4;

struct TimingConfig {
    double min_time_ns = kDefaultMinTimeNs;  // --bench-min-time
    std::uint64_t samples = 32;
    std::uint64_t pinned = 0;           // iterations per sample (batched) / timed calls (per call)
    bool warm_up = false;               // batched: one untimed sample before the samples, run as
                                        // they are (windows of inputs prepared first)
    bool refuse_optimized_away = true;  // batched: throw OptimizedAway (below)
    bool contended_retake = true;       // batched: retake short samples under contention
    bool core_probe = true;             // probe the core's speed: batched, around each sample;
                                        // per call, between calls every kPerCallProbeNs timed
    std::function<double()> probe;      // that probe, ns per step of kProbeSteps (core_probe.hpp);
                                        // empty: probe_step_ns() (tests substitute one)
    std::function<std::int64_t()> pair_clock;  // a difference's clock, ns (difference.hpp);
                                               // empty: now_ns() (tests substitute one)
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
// clock's empty bracket subtracted, so a deleted fn leaves only the clock's noise: there the
// rule is a window of max_inputs calls (at most 1024) timed alone, the quickest of up to 16,
// below half that bracket (a real fn whose full windows are that short cannot be timed
// either), probed when the samples' quickest windows read within 8 brackets.
// Per-call samples (bench_case) keep their call and are never refused: below the bracket they
// read as not resolved.
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

// Sets t's headline (median, MAD, ±, estimator, clean/disturbed) from its samples and their
// CPU times (engine/stats/headline.hpp); tolerance_ns: per iteration, what CPU reads may hide;
// step_ns: the clock's step per iteration, the least ± printed.
void apply_headline(TimingSummary& t, double tolerance_ns, double step_ns = 0);

// The summary of a set of per-iteration samples.
TimingSummary summarize_samples(std::vector<double> sample_ns, std::uint64_t iterations,
                                bool per_call);

}  // namespace glint::engine
