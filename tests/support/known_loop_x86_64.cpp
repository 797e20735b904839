// support/known_loop.hpp on x86-64: test+jz, then n passes of add, add, add, dec, jnz.
#include "support/known_loop.hpp"

namespace glint::test {

bool known_loop_available() { return true; }

[[gnu::noinline]] void known_loop(void*, std::uint64_t n) {
    asm volatile(
        "test %0, %0\n\tjz 2f\n"
        "1:\n\tadd $1, %%rax\n\tadd $2, %%rax\n\tadd $3, %%rax\n\tdec %0\n\tjnz 1b\n"
        "2:"
        : "+r"(n)
        :
        : "rax", "cc");
}

}  // namespace glint::test
