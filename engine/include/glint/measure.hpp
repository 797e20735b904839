// <glint/measure.hpp>: time a callable from your own program, no suite and no runner.
//
//   std::uint64_t x = 1;
//   const glint::Timing t = glint::measure([&] { x = glint::black_box(x + x); });
//   std::printf("%.3f ns ±%.3f\n", t.median_ns, t.mad_ns);
//
// Contracts:
//  - The protocol is the one glint::iter cases get from glint_bench --bench (Rust libtest's
//    Bencher shape): iterations per sample double from 1 until one sample takes at least
//    min_time_ns, a sample that reaches it confirmed by a second one; then `samples` samples of
//    that many iterations, timed with std::chrono::steady_clock. With `iterations` set, no
//    doubling: every sample runs exactly that many, so the body runs samples × iterations times.
//  - The sample loop is instantiated here, in the caller's translation unit, around the
//    callable (as glint::iter does): no std::function and no indirect call per iteration, so a
//    one-cycle body reads about one cycle. A non-void result is passed through
//    glint::black_box so the optimizer cannot drop the work that produced it.
//  - Runs on the calling thread; works with or without glint::main. Bad options throw
//    std::invalid_argument naming the field; nothing else is thrown by glint itself (an
//    exception from the body propagates).
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include <glint/bench.hpp>

namespace glint {

struct MeasureOptions {
    double min_time_ns = 5e6;      // per-sample target of the doubling (--bench-min-time)
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
