// tests/support/known_loop.hpp: a body whose retired instructions are known, for tests that
// count them (the emulated x86 rig exactly, a host with a PMU within a tolerance).
//
// known_loop(ctx, n) runs n passes of a loop of kKnownLoopPass instructions (three adds, a
// decrement, a conditional branch); n = 0 skips the loop with the same test-and-branch, so the
// instructions around the loop are the same for every n and
//   instructions(known_loop(n)) - instructions(known_loop(0)) == kKnownLoopPass * n
// exactly. The signature is a batch function's (ctx unused). One implementation per
// architecture (support/known_loop_<arch>.cpp, chosen by CMake); where none exists
// known_loop_available() is false and known_loop does nothing.
#pragma once

#include <cstdint>

namespace glint::test {

inline constexpr std::uint64_t kKnownLoopPass = 5;

bool known_loop_available();
void known_loop(void* ctx, std::uint64_t n);

}  // namespace glint::test
