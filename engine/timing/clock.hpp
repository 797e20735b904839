// engine/timing/clock.hpp: the timing pass's clock (std::chrono::steady_clock, which is
// CLOCK_MONOTONIC through the vDSO on Linux: no system call), and its measured properties.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "arch/arch.hpp"

namespace glint::engine {

using Clock = std::chrono::steady_clock;

[[gnu::always_inline]] inline std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
        .count();
}

struct ClockProperties {
    double resolution_ns = 0;  // smallest observed non-zero step between two reads
    double read_cost_ns = 0;   // median cost of one read, back to back
    double bracket_ns = 0;     // median of an empty start/stop pair

    // The arch's timestamp counter (TSC, CNTVCT), used to time per-call samples when the OS
    // vouches for a constant rate: finer and cheaper than steady_clock.
    bool ticks_usable = false;
    std::string ticks_name;      // "TSC"
    std::string ticks_why;       // why it is (not) used
    double ns_per_tick = 0;      // calibrated against steady_clock
    double tick_bracket_ns = 0;  // median of an empty serialised begin/end pair

    // One read of the thread's CPU clock (os::thread_cpu_ns: a system call on Linux), median
    // of 101 back-to-back reads; NaN when that clock is unavailable.
    double thread_cpu_read_ns = 0;
    // The thread CPU clock's smallest non-zero step between two reads; NaN when unavailable.
    double thread_cpu_step_ns = 0;
};

// Measures the clock once (a few milliseconds); later calls return the same figures.
const ClockProperties& clock_properties();

// A run's thread CPU time, from its clock's reads at start and stop (negative: unavailable),
// or NaN when it cannot be read: a read failed, or the clock's step exceeds a twentieth of the
// run's wall span (Windows' 15.6 ms tick reads a 1 ms run as 0 or 15.6 ms of CPU).
double run_cpu_ns(std::int64_t cpu_start, std::int64_t cpu_stop, double wall_ns,
                  double cpu_step_ns);

// What one read of the thread's CPU clock may hide from a sample: its step and its read cost.
double cpu_tolerance_per_read();

// Runs fn once between two reads of a clock, the arch's serialised timestamp when `use_ticks`
// (converted with clock.ns_per_tick) or else steady_clock, and returns that window in ns, the
// clock's own empty bracket included.
template <class F>
[[gnu::always_inline]] inline double time_window_ns(const ClockProperties& clock, bool use_ticks,
                                                    F&& fn) {
    if (use_ticks) {
        const std::uint64_t start = arch::native::timestamp_begin();
        fn();
        const std::uint64_t stop = arch::native::timestamp_end();
        return static_cast<double>(stop - start) * clock.ns_per_tick;
    }
    const std::int64_t start = now_ns();
    fn();
    const std::int64_t stop = now_ns();
    return static_cast<double>(stop - start);
}

}  // namespace glint::engine
