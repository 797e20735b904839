// glint::measure's protocol (<glint/measure.hpp>): the batched timing pass glint::iter cases
// get, over the caller's compiled batch, with its options checked and its summary made public.
#include <glint/measure.hpp>

#include <cmath>
#include <stdexcept>
#include <utility>

#include "engine/stats/summary.hpp"
#include "engine/timing/protocol.hpp"

namespace glint::detail {

Timing measure_batch(Batch batch, const MeasureOptions& options) {
    if (options.samples == 0)
        throw std::invalid_argument(
            "glint::measure: MeasureOptions::samples is 0; ask for at "
            "least 1 sample (the default is 32)");
    if (!std::isfinite(options.min_time_ns) || options.min_time_ns < 0)
        throw std::invalid_argument(
            "glint::measure: MeasureOptions::min_time_ns must be a "
            "finite number of ns >= 0 (the default is 2.5e5, 0.25 ms)");
    engine::TimingConfig config;
    config.min_time_ns = options.min_time_ns;
    config.samples = options.samples;
    config.pinned = options.iterations;
    config.refuse_optimized_away = false;  // glint::measure throws only for bad options
    // Its contract: the statistics summarise exactly the samples returned (no retake, no
    // clean-sample headline, no core-speed probes; those are the runner's, docs/load.md).
    config.contended_retake = false;
    config.core_probe = false;
    engine::TimingSummary s = engine::time_batched(batch, config);
    const engine::Summary plain = engine::summarize(s.sample_ns);
    Timing t;
    t.samples = s.samples;
    t.iterations_per_sample = s.iterations_per_sample;
    t.median_ns = plain.median;
    t.mad_ns = plain.mad;
    t.min_ns = s.min_ns;
    t.max_ns = s.max_ns;
    t.sample_ns = std::move(s.sample_ns);
    return t;
}

}  // namespace glint::detail
