// engine/timing/clock.hpp: the timing pass's clock (std::chrono::steady_clock, which is
// CLOCK_MONOTONIC through the vDSO on Linux: no system call), and its measured properties.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace glint::engine {

using Clock = std::chrono::steady_clock;

[[gnu::always_inline]] inline std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               Clock::now().time_since_epoch())
        .count();
}

struct ClockProperties {
    double resolution_ns = 0;  // smallest observed non-zero step between two reads
    double read_cost_ns = 0;   // median cost of one read, back to back
    double bracket_ns = 0;     // median of an empty start/stop pair

    // The arch's timestamp counter (TSC, CNTVCT), used to time per-call samples when the OS
    // vouches for a constant rate: finer and cheaper than steady_clock.
    bool ticks_usable = false;
    std::string ticks_name;       // "TSC"
    std::string ticks_why;        // why it is (not) used
    double ns_per_tick = 0;       // calibrated against steady_clock
    double tick_bracket_ns = 0;   // median of an empty serialised begin/end pair
};

// Measures the clock once (a few milliseconds); later calls return the same figures.
const ClockProperties& clock_properties();

}  // namespace glint::engine
