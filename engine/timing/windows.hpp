// engine/timing/windows.hpp: running a compiled batch in windows.
//
// A batch with inputs (glint::iter_batched: Batch::prepare set) must have the inputs of each
// run built first, untimed and outside any counting bracket, and runs in windows: about
// kWindowTargetNs of calls each, at most max_window iterations. Every place that runs a batch (the
// timing pass, each counting pass, the plain test run) goes through these helpers, so none of them
// times or counts setup.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include <glint/bench.hpp>

namespace glint::engine {

// True when the batch's iterations need inputs built before they run.
inline bool has_inputs(const glint::detail::Batch& b) { return b.prepare != nullptr; }

// The timed part a window of inputs aims at: long enough that the clock's own bracket (about
// 20-50 ns, subtracted per window) is noise, short enough that the window's inputs, just built
// by setup, are still in the caches when they are used, as in a loop that builds an input and
// then uses it.
inline constexpr double kWindowTargetNs = 20000;

// Iterations per window for a batch whose call takes about per_iteration_ns (nan: not known
// yet, 1): kWindowTargetNs worth of calls, at least 1, at most max_window. A reading of 0 (every
// window of the last sample within the clock's bracket) asks for the most calls, as a tiny
// reading does: windows of 1 would read 0 again and never grow. A batch without inputs has no
// windows: `n` (the whole run) is returned.
inline std::uint64_t window_for(const glint::detail::Batch& b, double per_iteration_ns,
                                std::uint64_t n) {
    if (!has_inputs(b)) return b.max_window ? std::min(n, b.max_window) : n;
    std::uint64_t k = 1;
    if (per_iteration_ns <= 0) k = n;  // false for nan
    else if (per_iteration_ns < kWindowTargetNs)
        k = static_cast<std::uint64_t>(kWindowTargetNs / per_iteration_ns);
    if (b.max_window) k = std::min(k, b.max_window);
    return std::max<std::uint64_t>(1, std::min(k, n));
}

// Builds the inputs of the next k iterations (nothing for a batch without inputs, or k == 0).
inline void prepare_window(const glint::detail::Batch& b, std::uint64_t k) {
    if (b.prepare && k) b.prepare(b.ctx, k);
}

// Runs n iterations as windows of at most `window` (>= 1): for each, before() then
// prepare_window(k) outside, then run(k), which runs (and brackets or times) exactly
// b.run(b.ctx, k).
template <class Before, class Run>
void for_each_window(const glint::detail::Batch& b, std::uint64_t n, std::uint64_t window,
                     Before&& before, Run&& run) {
    for (std::uint64_t left = n; left > 0;) {
        const std::uint64_t k = std::min(left, std::max<std::uint64_t>(window, 1));
        before();
        prepare_window(b, k);
        run(k);
        left -= k;
    }
}

template <class Run>
void for_each_window(const glint::detail::Batch& b, std::uint64_t n, std::uint64_t window,
                     Run&& run) {
    for_each_window(
        b, n, window, [] {}, std::forward<Run>(run));
}

// n iterations, untimed, one input at a time (the plain test run: n = 1).
inline void run_untimed(const glint::detail::Batch& b, std::uint64_t n) {
    for_each_window(b, n, has_inputs(b) ? 1 : n, [&](std::uint64_t k) { b.run(b.ctx, k); });
}

}  // namespace glint::engine
