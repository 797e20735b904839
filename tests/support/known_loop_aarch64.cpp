// support/known_loop.hpp on AArch64: cbz, then n passes of add, add, add, subs, b.ne.
#include "support/known_loop.hpp"

namespace glint::test {

bool known_loop_available() { return true; }

[[gnu::noinline]] void known_loop(void*, std::uint64_t n) {
    std::uint64_t scratch = 0;
    asm volatile(
        "cbz %0, 2f\n"
        "1:\n\tadd %1, %1, #1\n\tadd %1, %1, #2\n\tadd %1, %1, #3\n\tsubs %0, %0, #1\n\tb.ne 1b\n"
        "2:"
        : "+r"(n), "+r"(scratch)
        :
        : "cc");
}

}  // namespace glint::test
