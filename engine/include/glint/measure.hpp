// <glint/measure.hpp>: time a callable from your own program, no suite and no runner.
//
//   const glint::Timing t = glint::measure([&] { x = glint::black_box(x + x); });
//
// Contracts: the protocol of glint::iter under --bench (iterations double until a sample takes
// min_time_ns, then `samples` samples; with `iterations` set, exactly that many per sample),
// timed with std::chrono::steady_clock; the loop is instantiated in the caller (no indirect
// call per iteration) and a non-void result goes through glint::black_box. Runs on the calling
// thread, with or without glint::main. Bad options throw std::invalid_argument naming the field;
// an exception from the body propagates.
// Rationale and details: "<glint/measure.hpp>" in glint's documentation (rationale.md).
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include <glint/bench.hpp>

namespace glint {

struct MeasureOptions {
    double min_time_ns = 2.5e5;    // per-sample target of the doubling (--bench-min-time's default)
    std::uint64_t samples = 32;    // at least 1
    std::uint64_t iterations = 0;  // pinned iterations per sample; 0: double until min_time_ns
};

// Statistics are per iteration, in ns, over the samples.
struct Timing {
    std::uint64_t samples = 0;
    std::uint64_t iterations_per_sample = 0;
    double median_ns = 0;
    double mad_ns = 0;  // median absolute deviation around the median (unscaled)
    double min_ns = 0;
    double max_ns = 0;
    std::vector<double> sample_ns;  // every sample (ns per iteration), in measurement order
};

namespace detail {
// The protocol over a compiled batch (implemented in the library).
Timing measure_batch(Batch batch, const MeasureOptions& options);
}  // namespace detail

template <class F>
Timing measure(F&& body, const MeasureOptions& options = {}) {
    using Fn = std::remove_reference_t<F>;
    return detail::measure_batch(
        {&detail::run_batch<Fn>, const_cast<void*>(static_cast<const void*>(&body))}, options);
}

}  // namespace glint
