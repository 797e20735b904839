// engine/timing/clock.hpp: the timing pass's clock (std::chrono::steady_clock, which is
// CLOCK_MONOTONIC through the vDSO on Linux: no system call), and its measured properties.
#pragma once

#include <chrono>
#include <cstdint>

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
    double bracket_ns = 0;     // median of an empty start/stop pair (per-call overhead)
};

// Measures the clock once (a few milliseconds); later calls return the same figures.
const ClockProperties& clock_properties();

}  // namespace glint::engine
