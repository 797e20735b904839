// tests/support/headline_costs.hpp: the read costs docs/hot-loop.md quotes, in instructions.
//
// The tests that measure them assert these values exactly (a change of cost fails them and
// must be a deliberate edit here), and tests/unit/engine/hot/readme_costs_test.cpp checks that
// docs/hot-loop.md quotes each one in its stated phrase (it cannot drift from what is asserted):
//   x86-64: the fast path of the code the compiler emitted for <glint/hot.hpp> reads (entry to
//           ret, no retry, no fallback), counted by
//           tests/unit/engine/hot/inline_code_linux_x86_64_test.cpp in the unit-test binary: g++
//           12, -O3 (CMAKE_BUILD_TYPE=Release);
//   arm64:  what a bracket adds around a call, counted exactly under QEMU's -icount by an
//           independent INST_RETIRED event in the guest (tests/aarch64/guest/hot_test.cpp,
//           bracket_cost_test.cpp), the same on both guest CPUs (max, neoverse-n1).
#pragma once

namespace glint::test::headline {

struct Cost {
    long instructions;
    const char* readme;  // the guide's phrase (docs/hot-loop.md), "{}" standing for the figure
};

// x86-64, emitted fast path.
inline constexpr Cost kX86HotRead{78, "{} for a single `read()`"};
inline constexpr Cost kX86HotReadPair{
    144, "a `read()` pair of {cycles, instructions} is {} instructions"};
inline constexpr Cost kX86HotCountsPair{129, "{} for a `read_counts()` pair"};

// arm64 guest, added around a call.
inline constexpr Cost kArm64HotCountsPair{
    67, "`read_counts()` pair of {cycles, instructions} adds {} instructions"};
inline constexpr Cost kArm64HotReadPair{70, "a `read()` pair (with CNTVCT) {}"};
inline constexpr Cost kArm64EngineBracket{
    55, "the engine's compiled bracket over the same group adds {}"};
inline constexpr Cost kArm64SpecialisedBracket{56, "{} with a 64-bit cycle counter"};

inline constexpr const Cost* kAll[] = {
    &kX86HotRead,       &kX86HotReadPair,     &kX86HotCountsPair,       &kArm64HotCountsPair,
    &kArm64HotReadPair, &kArm64EngineBracket, &kArm64SpecialisedBracket};

}  // namespace glint::test::headline
