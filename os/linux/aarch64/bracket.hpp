// os/linux/aarch64/bracket.hpp: the AArch64 user-access bracket over a perf group's mmap pages.
//
// Each slot reads its event's page with read_page (no times) and an arch/aarch64 policy; a page
// that does not grant a user read sends that slot to the group's read(2) fallback, which gives
// the same running count. select_user_access_bracket() specialises on the layout the pages show
// once the group is on the PMU; specialised reads still check each index, so a stale layout is
// slower, never wrong. Header-only, arm64-only: include it only from GLINT_ARCH=aarch64 code.
// Rationale and details: docs/rationale.md, "os/linux/aarch64/bracket.hpp".
#pragma once

#include <linux/perf_event.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "arch/aarch64/bracket.hpp"
#include "arch/aarch64/pmu.hpp"
#include "os/linux/aarch64/page_policy.hpp"
#include "os/linux/aarch64/user_access.hpp"
#include "os/linux/mmap_page.hpp"

namespace glint::os::linux_ {

// The pages of one enabled group, in group order (leader first), and the read(2) fallback.
struct Arm64GroupPages {
    static constexpr std::size_t kMaxSlots = 8;
    std::size_t count = 0;
    const perf_event_mmap_page* pages[kMaxSlots] = {};
    // Returns slot `slot`'s running count through read(2). Must not fail; called out of line.
    std::int64_t (*fallback)(const void* context, std::size_t slot) = nullptr;
    const void* fallback_context = nullptr;
};

// One bracket run: body = batch(context, iterations); deltas[i] for slot i in group order.
// Passed as one struct so a bracket keeps a single pointer alive across its out-of-line slow
// paths instead of five arguments (fewer callee-saved registers to save and restore).
using Arm64BatchFn = void (*)(void* context, std::uint64_t iterations);
struct Arm64BracketCall {
    Arm64GroupPages group;  // first, by value: the pages sit at fixed offsets from the call
    Arm64BatchFn batch;
    void* context;
    std::uint64_t iterations;
    std::int64_t* deltas;
};
using Arm64BracketFn = void (*)(const Arm64BracketCall& call);

// An arch/aarch64 policy plus what arm64 Linux guarantees about its pages (page_policy.hpp, the
// one statement of it, which <glint/hot.hpp> reads through too).
template <class ArchPolicy>
using Arm64LinuxPolicy = aarch64::PagePolicy<ArchPolicy>;

// Slot `slot` of `group` through the generic policy, then read(2). Out of line: the slow path
// of every slot.
[[gnu::noinline]] inline std::int64_t arm64_slow_read(const Arm64GroupPages* group,
                                                      std::size_t slot) {
    const PageReading r =
        read_page<Arm64LinuxPolicy<arch::aarch64::Pmu>, false>(group->pages[slot]);
    if (r.user_read) return r.count;
    return group->fallback(group->fallback_context, slot);
}

// Slot `slot` of `group`, read with `Policy`, else the slow path.
template <class Policy>
[[gnu::always_inline]] inline std::int64_t arm64_read_slot(const Arm64GroupPages* group,
                                                           std::size_t slot) {
    const PageReading r = read_page<Arm64LinuxPolicy<Policy>, false>(group->pages[slot]);
    if (r.user_read) [[likely]]
        return r.count;
    return arm64_slow_read(group, slot);
}

// The slots of any group, read with the generic policy (`mrs` by switch, width from the page).
struct Arm64GenericReader {
    const Arm64GroupPages* group;
    [[gnu::always_inline]] std::int64_t read(std::size_t slot) const {
        return arm64_read_slot<arch::aarch64::Pmu>(group, slot);
    }
    template <std::size_t I>
    [[gnu::always_inline]] std::int64_t read() const {
        return read(I);
    }
};

// The slots of a specialised layout: slot I at a compile-time index and width. CycleWidth is
// used only when CyclesFirst.
template <bool CyclesFirst, unsigned CycleWidth, unsigned EventWidth>
struct Arm64FixedLayoutReader {
    const Arm64GroupPages* group;
    static constexpr std::uint32_t index_of(std::size_t slot) {
        if (CyclesFirst) return slot == 0 ? arch::aarch64::kCycleCounterIndex : std::uint32_t(slot);
        return std::uint32_t(slot + 1);
    }
    static constexpr unsigned width_of(std::size_t slot) {
        return CyclesFirst && slot == 0 ? CycleWidth : EventWidth;
    }
    template <std::size_t I>
    [[gnu::always_inline]] std::int64_t read() const {
        return arm64_read_slot<arch::aarch64::FixedPmu<index_of(I), width_of(I)>>(group, I);
    }
};

namespace arm64_detail {

template <bool CyclesFirst, unsigned CycleWidth, unsigned EventWidth, std::size_t Count>
void run_fixed_layout(const Arm64BracketCall& call) {
    const Arm64FixedLayoutReader<CyclesFirst, CycleWidth, EventWidth> reader{&call.group};
    const std::array<std::int64_t, Count> deltas = arch::aarch64::run_bracket<Count>(
        reader, [&] { call.batch(call.context, call.iterations); });
    for (std::size_t i = 0; i < Count; ++i) call.deltas[i] = deltas[i];
}

// Entry c: a group of c + 1 slots.
template <bool CyclesFirst, unsigned CycleWidth, unsigned EventWidth, std::size_t... Count>
constexpr auto fixed_table(std::index_sequence<Count...>) {
    return std::array<Arm64BracketFn, sizeof...(Count)>{
        &run_fixed_layout<CyclesFirst, CycleWidth, EventWidth, Count + 1>...};
}

template <bool CyclesFirst, unsigned CycleWidth, unsigned EventWidth>
inline constexpr auto kFixedTable = fixed_table<CyclesFirst, CycleWidth, EventWidth>(
    std::make_index_sequence<Arm64GroupPages::kMaxSlots>{});

}  // namespace arm64_detail

// The generic bracket: switch over the index and the page's width on every read.
inline void run_generic_user_access_bracket(const Arm64BracketCall& call) {
    arch::aarch64::run_bracket(
        Arm64GenericReader{&call.group}, call.group.count,
        [&] { call.batch(call.context, call.iterations); }, call.deltas);
}

// The bracket for `layout` (generic when the layout is not a specialised one).
inline Arm64BracketFn select_user_access_bracket(const Arm64Layout& layout) {
    using namespace arm64_detail;
    const std::size_t slots = layout.events + (layout.cycles_first ? 1 : 0);
    if (!layout.specialised || slots == 0 || slots > Arm64GroupPages::kMaxSlots)
        return &run_generic_user_access_bracket;
    // A group of the cycle counter alone has no event width: any table of its cycle width.
    const bool events64 = layout.events == 0 || layout.event_width == 64;
    const bool cycles64 = layout.cycles_width == 64;
    if (!layout.cycles_first) {
        return (events64 ? kFixedTable<false, 64, 64> : kFixedTable<false, 64, 32>)[slots - 1];
    }
    if (cycles64) {
        return (events64 ? kFixedTable<true, 64, 64> : kFixedTable<true, 64, 32>)[slots - 1];
    }
    return (events64 ? kFixedTable<true, 32, 64> : kFixedTable<true, 32, 32>)[slots - 1];
}

}  // namespace glint::os::linux_
