// engine/timing/windows.hpp: running a compiled batch in windows.
//
// A batch with inputs (glint::iter_batched: Batch::prepare set) must have the inputs of each
// run built first, untimed and outside any counting bracket, and runs at most max_window
// iterations at a time. Every place that runs a batch (the timing pass, each counting pass, the
// plain test run) goes through these helpers, so none of them times or counts setup.
#pragma once

#include <algorithm>
#include <cstdint>

#include <glint/bench.hpp>

namespace glint::engine {

// True when the batch's iterations need inputs built before they run.
inline bool has_inputs(const glint::detail::Batch& b) { return b.prepare != nullptr; }

// The largest window a run of n iterations may use (n itself when the batch sets no cap).
inline std::uint64_t window_of(const glint::detail::Batch& b, std::uint64_t n) {
    return b.max_window ? std::min(n, b.max_window) : n;
}

// Builds the inputs of the next k iterations (nothing for a batch without inputs, or k == 0).
inline void prepare_window(const glint::detail::Batch& b, std::uint64_t k) {
    if (b.prepare && k) b.prepare(b.ctx, k);
}

// Runs n iterations as windows: for each, prepare_window(k) outside, then window(k), which
// runs (and brackets or times) exactly b.run(b.ctx, k).
template <class Window>
void for_each_window(const glint::detail::Batch& b, std::uint64_t n, Window&& window) {
    for (std::uint64_t left = n; left > 0;) {
        const std::uint64_t k = window_of(b, left);
        prepare_window(b, k);
        window(k);
        left -= k;
    }
}

// n iterations, untimed (the plain test run: n = 1).
inline void run_untimed(const glint::detail::Batch& b, std::uint64_t n) {
    for_each_window(b, n, [&](std::uint64_t k) { b.run(b.ctx, k); });
}

}  // namespace glint::engine
