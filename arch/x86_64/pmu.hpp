// <glint/detail/arch/x86_64/pmu.hpp>: the x86-64 counter and timestamp instructions.
#pragma once

#include <cpuid.h>

#include <cstddef>
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

// Whether CPUID reports rdtscp (leaf 0x80000001, EDX bit 27). A CPU or guest without it
// faults on the instruction (SIGILL), so timestamp_end() reads `lfence; rdtsc` there.
inline bool cpu_has_rdtscp() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) && (edx >> 27) & 1u;
}
inline const bool kHasRdtscp = cpu_has_rdtscp();

// Timestamps around a short timed region: `lfence; rdtsc` at the start (earlier instructions
// complete before the read), `rdtscp; lfence` at the end (the region completes before the read,
// later instructions wait for it), or `lfence; rdtsc; lfence` where the CPU has no rdtscp.
[[gnu::always_inline]] inline std::uint64_t timestamp_begin() {
    std::uint32_t lo, hi;
    asm volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return (std::uint64_t{hi} << 32) | lo;
}
[[gnu::always_inline]] inline std::uint64_t timestamp_end() {
    std::uint32_t lo, hi, aux;
    if (kHasRdtscp) asm volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
    else asm volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi)::"memory");
    return (std::uint64_t{hi} << 32) | lo;
}

struct Pmu {
    static constexpr const char* kName = "x86_64";
    static constexpr const char* kTimestampName = "TSC";
    static constexpr bool kHasTimestamp = true;
    static constexpr bool kTimestampConstantRate = false;  // else the OS must vouch for it
    [[gnu::always_inline]] static std::uint64_t timestamp_begin() {
        return x86_64::timestamp_begin();
    }
    [[gnu::always_inline]] static std::uint64_t timestamp_end() { return x86_64::timestamp_end(); }
    // Orders a following counter read after the instructions before it (what timestamp_begin
    // does, without the timestamp).
    [[gnu::always_inline]] static void read_barrier() { asm volatile("lfence" ::: "memory"); }
    static constexpr const char* kUserReadName = "rdpmc";
    static constexpr bool kHasUserCounterReads = true;
    [[gnu::always_inline]] static std::uint64_t read_pmc(std::uint32_t page_index) {
        return rdpmc(page_index - 1);
    }
    [[gnu::always_inline]] static std::uint64_t read_timestamp() { return rdtsc(); }
    // The ABI's thread pointer (the %fs base: one load, %fs:0, the TCB's pointer to itself),
    // distinct for every live thread where the OS keeps its TLS there (os::user_page says so).
    static constexpr bool kHasThreadPointer = true;
    [[gnu::always_inline]] static const void* thread_pointer() {
#if defined(_WIN64)
        const void* self;  // the TEB's own address (NT_TIB.Self): mingw-w64 has no builtin
        asm("mov %%gs:0x30, %0" : "=r"(self));
        return self;
#else
        return __builtin_thread_pointer();  // the compiler schedules it with the reads
#endif
    }
};

// The policy for slot `Slot` of a group read by <glint/hot.hpp>. rdpmc takes its counter number
// in a register, so a compile-time index buys nothing here: every slot reads the page's index.
template <std::size_t Slot>
using SlotPmu = Pmu;

}  // namespace glint::arch::x86_64
