// <glint/detail/arch/aarch64/pmu.hpp>: the AArch64 policies the perf page protocol reads with.
//
// Pmu: the generic policy. read_pmc(page_index) picks the `mrs` with a switch (any index
// 1..31, 32). FixedPmu<Index, Width>: a policy specialised, when a bracket is set up, on the index
// the page showed then and on the counter width. It accepts only that index (accepts_index:
// one compare per read), so when the kernel moved the event the protocol reports "no user read"
// and the caller takes its generic path; Width is a promise the caller checked once against the
// page's pmc_width (the kernel fixes an event's width at open), so no width is loaded per read.
#pragma once

#include <cstddef>
#include <cstdint>

#include <glint/detail/arch/aarch64/counters.hpp>

namespace glint::arch::aarch64 {

struct Pmu {
    static constexpr const char* kName = "aarch64";
    static constexpr const char* kTimestampName = "CNTVCT";
    static constexpr bool kHasTimestamp = true;
    static constexpr bool kTimestampConstantRate = true;  // else the OS must vouch for it
    // isb before the read: earlier instructions complete before the counter is sampled.
    [[gnu::always_inline]] static std::uint64_t timestamp_begin() { return cntvct(); }
    [[gnu::always_inline]] static std::uint64_t timestamp_end() { return cntvct(); }
    // Orders a following counter read after the instructions before it (the isb of
    // timestamp_begin, without the timestamp).
    [[gnu::always_inline]] static void read_barrier() { isb(); }
    static constexpr const char* kUserReadName = "mrs";
    static constexpr bool kHasUserCounterReads = true;
    [[gnu::always_inline]] static std::uint64_t read_pmc(std::uint32_t page_index) {
        return read_counter(page_index);
    }
    [[gnu::always_inline]] static std::uint64_t read_timestamp() { return cntvct(); }
    // The ABI's thread pointer (TPIDR_EL0: one mrs), distinct for every live thread where the OS
    // keeps its TLS there (os::user_page says so).
    static constexpr bool kHasThreadPointer = true;
    [[gnu::always_inline]] static const void* thread_pointer() {
        return __builtin_thread_pointer();
    }
    // The two adjacent 32-bit words at base + Offset (the first at the lower address) with one
    // ldp, addressed from `base` so no address is computed per read.
    template <std::size_t Offset>
    [[gnu::always_inline]] static void load_pair(const void* base, std::uint32_t& first,
                                                 std::uint32_t& second) {
        static_assert(Offset % 4 == 0 && Offset <= 252, "ldp (32-bit) immediate offset");
        asm volatile("ldp %w0, %w1, [%2, %3]"
                     : "=r"(first), "=r"(second)
                     : "r"(base), "i"(Offset)
                     : "memory");
    }
    // The two adjacent 64-bit words at base + Offset, likewise with one ldp.
    template <std::size_t Offset>
    [[gnu::always_inline]] static void load_pair64(const void* base, std::uint64_t& first,
                                                   std::uint64_t& second) {
        static_assert(Offset % 8 == 0 && Offset <= 504, "ldp (64-bit) immediate offset");
        asm volatile("ldp %0, %1, [%2, %3]"
                     : "=r"(first), "=r"(second)
                     : "r"(base), "i"(Offset)
                     : "memory");
    }
};

template <std::uint32_t Index, unsigned Width>
struct FixedPmu : Pmu {
    static_assert(register_of_index(Index) != kNoRegister, "Index must be 1..32");
    static_assert(Width == 32 || Width == 64, "PMU counters are 32 or 64 bits wide");
    static constexpr std::uint32_t kIndex = Index;
    static constexpr unsigned kPmcWidth = Width;
    [[gnu::always_inline]] static bool accepts_index(std::uint32_t page_index) {
        return page_index == Index;
    }
    // Called only with an accepted index.
    [[gnu::always_inline]] static std::uint64_t read_pmc(std::uint32_t) {
        return read_counter_at<Index>();
    }
};

// The policy for slot `Slot` of a group read by <glint/hot.hpp>, which opens its groups cycles
// first with 32-bit counters: the cycle counter (index 32) at slot 0 and event counters at
// indices 1, 2, ... in slot order after it (the order a fresh group gets its counters). `mrs`
// names its register in the instruction, so each slot is specialised on that expected index;
// accepts_index still checks the page on every read, so any other layout reads correctly,
// through the caller's generic path.
template <std::size_t Slot>
using SlotPmu = FixedPmu<Slot == 0 ? kCycleCounterIndex : static_cast<std::uint32_t>(Slot), 32>;

}  // namespace glint::arch::aarch64
