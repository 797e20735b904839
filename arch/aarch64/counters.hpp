// <glint/detail/arch/aarch64/counters.hpp>: EL0 reads of the AArch64 PMU counters and the
// virtual counter.
// Mrs::read<n> reads pmevcntr<n>_el0; read_counter(index) dispatches a page index (1..31 ->
// PMEVCNTR0..30_EL0, 32 -> PMCCNTR_EL0) through a switch, templated on the reader so tests can
// substitute one. Precondition: EL0 access was granted (PMUSERENR_EL0.ER / .CR; on Linux the
// perf page's cap_user_rdpmc && index != 0); otherwise each read faults with SIGILL.
// Rationale: "<glint/detail/arch/aarch64/counters.hpp>" in glint's documentation (rationale.md).
#pragma once

#include <cstdint>
#include <cstdlib>

namespace glint::arch::aarch64 {

// Register ids Mrs::read<Reg> understands: 0..30 are PMEVCNTR<Reg>_EL0, 31 is PMCCNTR_EL0.
inline constexpr unsigned kEventCounterCount = 31;
inline constexpr unsigned kCycleCounterReg = 31;
// The page index of PMCCNTR_EL0; index n in 1..31 is PMEVCNTR<n-1>_EL0.
inline constexpr std::uint32_t kCycleCounterIndex = 32;

// Register id of a page index (1..32); kNoRegister for any other value.
inline constexpr unsigned kNoRegister = ~0u;
constexpr unsigned register_of_index(std::uint32_t page_index) {
    if (page_index == kCycleCounterIndex) return kCycleCounterReg;
    if (page_index >= 1 && page_index <= kEventCounterCount) return page_index - 1;
    return kNoRegister;
}

// One `mrs` per counter register. Not ordered against surrounding instructions: callers that
// need ordering (the bracket) place `isb` themselves (see isb()).
struct Mrs {
    template <unsigned Reg>
    static std::uint64_t read();
};

#define GLINT_AARCH64_MRS_READER(reg, name)                        \
    template <>                                                    \
    [[gnu::always_inline]] inline std::uint64_t Mrs::read<reg>() { \
        std::uint64_t v;                                           \
        asm volatile("mrs %0, " name : "=r"(v));                   \
        return v;                                                  \
    }
#define GLINT_AARCH64_PMEVCNTR_READER(n) GLINT_AARCH64_MRS_READER(n, "pmevcntr" #n "_el0")

GLINT_AARCH64_PMEVCNTR_READER(0)
GLINT_AARCH64_PMEVCNTR_READER(1)
GLINT_AARCH64_PMEVCNTR_READER(2)
GLINT_AARCH64_PMEVCNTR_READER(3)
GLINT_AARCH64_PMEVCNTR_READER(4)
GLINT_AARCH64_PMEVCNTR_READER(5)
GLINT_AARCH64_PMEVCNTR_READER(6)
GLINT_AARCH64_PMEVCNTR_READER(7)
GLINT_AARCH64_PMEVCNTR_READER(8)
GLINT_AARCH64_PMEVCNTR_READER(9)
GLINT_AARCH64_PMEVCNTR_READER(10)
GLINT_AARCH64_PMEVCNTR_READER(11)
GLINT_AARCH64_PMEVCNTR_READER(12)
GLINT_AARCH64_PMEVCNTR_READER(13)
GLINT_AARCH64_PMEVCNTR_READER(14)
GLINT_AARCH64_PMEVCNTR_READER(15)
GLINT_AARCH64_PMEVCNTR_READER(16)
GLINT_AARCH64_PMEVCNTR_READER(17)
GLINT_AARCH64_PMEVCNTR_READER(18)
GLINT_AARCH64_PMEVCNTR_READER(19)
GLINT_AARCH64_PMEVCNTR_READER(20)
GLINT_AARCH64_PMEVCNTR_READER(21)
GLINT_AARCH64_PMEVCNTR_READER(22)
GLINT_AARCH64_PMEVCNTR_READER(23)
GLINT_AARCH64_PMEVCNTR_READER(24)
GLINT_AARCH64_PMEVCNTR_READER(25)
GLINT_AARCH64_PMEVCNTR_READER(26)
GLINT_AARCH64_PMEVCNTR_READER(27)
GLINT_AARCH64_PMEVCNTR_READER(28)
GLINT_AARCH64_PMEVCNTR_READER(29)
GLINT_AARCH64_PMEVCNTR_READER(30)
GLINT_AARCH64_MRS_READER(31, "pmccntr_el0")

#undef GLINT_AARCH64_PMEVCNTR_READER
#undef GLINT_AARCH64_MRS_READER

// The counter at `page_index` (1..31 event counters, 32 the cycle counter), read with one `mrs`
// chosen by a switch. An index outside 1..32 is a broken caller or kernel: abort, never a
// made-up value.
template <class Reader = Mrs>
[[gnu::always_inline]] inline std::uint64_t read_counter(std::uint32_t page_index) {
#define GLINT_AARCH64_CASE(n) \
    case (n) + 1:             \
        return Reader::template read<(n)>();
    switch (page_index) {
        GLINT_AARCH64_CASE(0)
        GLINT_AARCH64_CASE(1)
        GLINT_AARCH64_CASE(2)
        GLINT_AARCH64_CASE(3)
        GLINT_AARCH64_CASE(4)
        GLINT_AARCH64_CASE(5)
        GLINT_AARCH64_CASE(6)
        GLINT_AARCH64_CASE(7)
        GLINT_AARCH64_CASE(8)
        GLINT_AARCH64_CASE(9)
        GLINT_AARCH64_CASE(10)
        GLINT_AARCH64_CASE(11)
        GLINT_AARCH64_CASE(12)
        GLINT_AARCH64_CASE(13)
        GLINT_AARCH64_CASE(14)
        GLINT_AARCH64_CASE(15)
        GLINT_AARCH64_CASE(16)
        GLINT_AARCH64_CASE(17)
        GLINT_AARCH64_CASE(18)
        GLINT_AARCH64_CASE(19)
        GLINT_AARCH64_CASE(20)
        GLINT_AARCH64_CASE(21)
        GLINT_AARCH64_CASE(22)
        GLINT_AARCH64_CASE(23)
        GLINT_AARCH64_CASE(24)
        GLINT_AARCH64_CASE(25)
        GLINT_AARCH64_CASE(26)
        GLINT_AARCH64_CASE(27)
        GLINT_AARCH64_CASE(28)
        GLINT_AARCH64_CASE(29)
        GLINT_AARCH64_CASE(30)
        case kCycleCounterIndex:
            return Reader::template read<kCycleCounterReg>();
        default:
            std::abort();
    }
#undef GLINT_AARCH64_CASE
}

// The counter at a page index known at compile time: one `mrs`, no dispatch.
template <std::uint32_t PageIndex, class Reader = Mrs>
[[gnu::always_inline]] inline std::uint64_t read_counter_at() {
    static_assert(register_of_index(PageIndex) != kNoRegister, "page index must be 1..32");
    return Reader::template read<register_of_index(PageIndex)>();
}

// Event counter `counter` (0..30) through the indirect route: PMSELR_EL0 selects it,
// PMXEVCNTR_EL0 reads it. Costs an isb; Linux zeroes PMSELR_EL0 whenever the perf page's
// sequence lock changes, so the result is only valid inside an unchanged seqlock. Used by tests
// as an independent witness of the direct readers.
inline std::uint64_t read_selected_counter(unsigned counter) {
    std::uint64_t v;
    asm volatile("msr pmselr_el0, %1\n\tisb\n\tmrs %0, pmxevcntr_el0"
                 : "=r"(v)
                 : "r"(std::uint64_t{counter}));
    return v;
}

// Context synchronisation. A bracket places one after its opening reads (the body cannot start
// before they are done) and one before its closing reads (they cannot run ahead of the body).
[[gnu::always_inline]] inline void isb() { asm volatile("isb" ::: "memory"); }

// CNTVCT_EL0, the clock the perf page's time_mult/time_shift convert (EL0-readable on Linux).
// The leading isb keeps the read from being satisfied ahead of earlier instructions.
[[gnu::always_inline]] inline std::uint64_t cntvct() {
    std::uint64_t v;
    asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
    return v;
}

}  // namespace glint::arch::aarch64
