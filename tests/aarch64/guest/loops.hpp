// tests/aarch64/guest/loops.hpp: bodies whose instruction counts are known exactly.
//
// Each loop_k function runs `iterations` passes of a loop whose every pass retires exactly K
// instructions (K - 2 adds, subs, b.ne), after a fixed entry cost that does not depend on
// `iterations` (the call, a cbz, the return). So for any bracket:
//   delta(N) - delta(0) == K * N     (batched)
//   delta(1) - delta(0) == K         (per call)
// exactly, when instructions are counted exactly (QEMU's -icount).
#pragma once

#include <cstdint>

namespace glint::guest {

inline constexpr std::uint64_t kLoop3 = 3;
inline constexpr std::uint64_t kLoop8 = 8;

void loop_3(void* context, std::uint64_t iterations);
void loop_8(void* context, std::uint64_t iterations);
// Does nothing: the empty batch a calibration brackets.
void empty_batch(void* context, std::uint64_t iterations);

}  // namespace glint::guest
