// tests/aarch64/guest/engine_cases.hpp: the bodies of the GLINT_BENCH cases the engine measures
// in the guest (engine_cases.cpp), visible to the tests so they can count the very same batch
// functions (glint::detail::run_batch<Adds5>, ...) independently of the engine.
//
// Each body is a fixed run of adds in one asm statement, so what an iteration retires is the
// adds plus the loop glint::iter's batch function wraps around them; the tests measure that
// whole batch function rather than assume the compiler's loop.
#pragma once

namespace glint::guest {

inline constexpr unsigned kAdds5 = 5;
inline constexpr unsigned kAdds13 = 13;
inline constexpr unsigned kAdds21 = 21;

struct Adds5 {
    void operator()() const {
        asm volatile(
            "add x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t"
            "add x9, x9, #1" ::
                : "x9");
    }
};

struct Adds13 {
    void operator()() const {
        asm volatile(
            "add x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t"
            "add x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t"
            "add x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t"
            "add x9, x9, #1" ::
                : "x9");
    }
};

struct Adds21 {
    void operator()() const {
        asm volatile(
            "add x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t"
            "add x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t"
            "add x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t"
            "add x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t"
            "add x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\tadd x9, x9, #1\n\t"
            "add x9, x9, #1" ::
                : "x9");
    }
};

// The number of counters the contended case's competing group takes. QEMU's PMU has six event
// counters and the cycle counter, and implements only CPU_CYCLES and INST_RETIRED, so the
// engine's group there is cycles (the cycle counter), instructions (an event counter) and
// page-faults (software); with six more event counters the two groups fit the PMU one at a
// time only, and take turns.
inline constexpr unsigned kCompetingEvents = 6;

}  // namespace glint::guest
