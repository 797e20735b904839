// engine/timing/timed_windows.hpp: timing a batch with inputs (glint::iter_batched) in windows,
// each one's inputs built untimed first, with the thread CPU time it kept.
#pragma once

#include <cstdint>

#include <glint/bench.hpp>

namespace glint::engine {

// The share of a window's untimed part (its setup) whose lost time is not held against the
// window: the 1% of docs/load.md's rule, for interrupt time not charged to the thread.
inline constexpr double kUntimedLostShare = 0.01;

struct WindowsTime {
    double wall = 0;  // the windows' timed wall time, less the clock's bracket per window
    double cpu = 0;   // NaN unless read_cpu: wall less the time lost around windows and setup
};

// n iterations in windows of `window` (docs/load.md "The estimator"). With read_cpu the thread
// CPU clock is read before each window's setup and after the window, never between them: a read
// is where the scheduler takes an expired slice, and a switch there would hand the window's
// fresh inputs to another task's caches. Wall minus CPU across that span, beyond
// kUntimedLostShare of its untimed part, is time the window lost.
WindowsTime time_windows(const glint::detail::Batch& batch, std::uint64_t n, std::uint64_t window,
                         bool read_cpu);

}  // namespace glint::engine
