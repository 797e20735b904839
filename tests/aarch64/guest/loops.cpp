#include "loops.hpp"

namespace glint::guest {

// The loops are whole asm bodies so the compiler cannot change what one pass retires.
[[gnu::noinline]] void loop_3(void*, std::uint64_t iterations) {
    std::uint64_t scratch = 0;
    asm volatile(
        "cbz %[n], 2f\n"
        "1:\n\t"
        "add %[s], %[s], #1\n\t"
        "subs %[n], %[n], #1\n\t"
        "b.ne 1b\n"
        "2:\n"
        : [n] "+r"(iterations), [s] "+r"(scratch)
        :
        : "cc");
}

[[gnu::noinline]] void loop_8(void*, std::uint64_t iterations) {
    std::uint64_t scratch = 0;
    asm volatile(
        "cbz %[n], 2f\n"
        "1:\n\t"
        "add %[s], %[s], #1\n\t"
        "add %[s], %[s], #2\n\t"
        "add %[s], %[s], #3\n\t"
        "add %[s], %[s], #4\n\t"
        "add %[s], %[s], #5\n\t"
        "add %[s], %[s], #6\n\t"
        "subs %[n], %[n], #1\n\t"
        "b.ne 1b\n"
        "2:\n"
        : [n] "+r"(iterations), [s] "+r"(scratch)
        :
        : "cc");
}

[[gnu::noinline]] void empty_batch(void*, std::uint64_t) { asm volatile(""); }

}  // namespace glint::guest
