// arch/x86_64/pmu.hpp: the x86-64 counter and timestamp instructions.
#pragma once

#include <cstdint>

namespace glint::arch::x86_64 {

// rdpmc of the counter the perf mmap page names (page index is 1-based: rdpmc(index - 1)).
// Faults (SIGSEGV) unless the kernel set CR4.PCE for this mm: call only when the page grants it.
[[gnu::always_inline]] inline std::uint64_t rdpmc(std::uint32_t counter) {
    std::uint32_t lo, hi;
    asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
    return (std::uint64_t{hi} << 32) | lo;
}

[[gnu::always_inline]] inline std::uint64_t rdtsc() {
    std::uint32_t lo, hi;
    asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (std::uint64_t{hi} << 32) | lo;
}

struct Pmu {
    static constexpr const char* kName = "x86_64";
    static constexpr const char* kUserReadName = "rdpmc";
    static constexpr bool kHasUserCounterReads = true;
    [[gnu::always_inline]] static std::uint64_t read_pmc(std::uint32_t page_index) {
        return rdpmc(page_index - 1);
    }
    [[gnu::always_inline]] static std::uint64_t read_timestamp() { return rdtsc(); }
};

}  // namespace glint::arch::x86_64
