// arch/aarch64/pmu.hpp: AArch64 PMU user access (placeholder until the aarch64 back end lands:
// reads go through read(2)).
#pragma once

#include <cstdint>
#include <cstdlib>

namespace glint::arch::aarch64 {

[[gnu::always_inline]] inline std::uint64_t cntvct() {
    std::uint64_t v;
    asm volatile("isb; mrs %0, cntvct_el0" : "=r"(v));
    return v;
}

struct Pmu {
    static constexpr const char* kName = "aarch64";
    static constexpr const char* kTimestampName = "CNTVCT";
    static constexpr bool kHasTimestamp = true;
    static constexpr bool kTimestampConstantRate = true;  // else the OS must vouch for it
    // isb before the read: earlier instructions complete before the counter is sampled.
    [[gnu::always_inline]] static std::uint64_t timestamp_begin() { return cntvct(); }
    [[gnu::always_inline]] static std::uint64_t timestamp_end() { return cntvct(); }
    static constexpr const char* kUserReadName = "mrs";
    static constexpr bool kHasUserCounterReads = false;
    static std::uint64_t read_pmc(std::uint32_t) { std::abort(); }
    [[gnu::always_inline]] static std::uint64_t read_timestamp() { return cntvct(); }
};

}  // namespace glint::arch::aarch64
