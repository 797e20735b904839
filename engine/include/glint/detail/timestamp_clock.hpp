// <glint/detail/timestamp_clock.hpp>: the timestamp counter as the engine calibrated it, for
// inline code that reads the counter itself (<glint/asm.hpp>). Implemented by the engine
// (its timing clock).
#pragma once

#include <string>

namespace glint::detail {

struct TimestampClock {
    bool usable = false;     // a constant-rate counter the OS vouches for
    double ns_per_tick = 0;  // calibrated against steady_clock (0 when not usable)
    std::string why;         // why it is (not) usable
};
TimestampClock timestamp_clock();

}  // namespace glint::detail
