// arch/aarch64/bracket.hpp: the compiled AArch64 counting bracket, one instantiation per group
// layout (the counterpart of the x86 JIT stubs).
//
// Shape: read every slot in group order; isb; the body (N iterations, one batch call); isb;
// read every slot in reverse order; store end - start per slot. Both isb are inside the bracket
// on every path, calibration included, so they belong to the calibrated self-cost.
// The slots come from a Reader with `template <std::size_t I> std::int64_t read() const`
// returning slot I's running count; this file knows nothing about where counts come from.
// Rationale and details: docs/rationale.md, "arch/aarch64/bracket.hpp".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "arch/aarch64/counters.hpp"

namespace glint::arch::aarch64 {

namespace detail {
template <class Reader, class Body, std::size_t... I>
[[gnu::always_inline]] inline std::array<std::int64_t, sizeof...(I)> run_bracket(
    const Reader& reader, Body& body, std::index_sequence<I...>) {
    constexpr std::size_t kCount = sizeof...(I);
    std::array<std::int64_t, kCount> start;
    std::array<std::int64_t, kCount> end;
    ((start[I] = reader.template read<I>()), ...);  // group order
    isb();
    body();
    isb();
    ((end[kCount - 1 - I] = reader.template read<kCount - 1 - I>()), ...);  // reverse order
    return {(end[I] - start[I])...};
}
}  // namespace detail

// Runs body() once inside the bracket over slots 0..Count-1 of `reader`; returns slot i's
// end - start at [i]. (Returned rather than stored through a pointer so the caller's
// destination is only looked up after the body: nothing extra stays live across it.)
template <std::size_t Count, class Reader, class Body>
[[gnu::always_inline]] inline std::array<std::int64_t, Count> run_bracket(const Reader& reader,
                                                                          Body&& body) {
    return detail::run_bracket(reader, body, std::make_index_sequence<Count>{});
}

// The same shape over a run-time number of slots (the generic path, used when no specialised
// layout matches): Reader has `std::int64_t read(std::size_t slot) const`. At most kMaxSlots.
inline constexpr std::size_t kMaxRuntimeSlots = 16;
template <class Reader, class Body>
[[gnu::always_inline]] inline void run_bracket(const Reader& reader, std::size_t count, Body&& body,
                                               std::int64_t* deltas) {
    std::int64_t start[kMaxRuntimeSlots];
    if (count > kMaxRuntimeSlots) std::abort();
    for (std::size_t i = 0; i < count; ++i) start[i] = reader.read(i);
    isb();
    body();
    isb();
    for (std::size_t i = count; i-- > 0;) deltas[i] = reader.read(i) - start[i];
}

}  // namespace glint::arch::aarch64
