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
    static constexpr const char* kUserReadName = "mrs";
    static constexpr bool kHasUserCounterReads = false;
    static std::uint64_t read_pmc(std::uint32_t) { std::abort(); }
    [[gnu::always_inline]] static std::uint64_t read_timestamp() { return cntvct(); }
};

}  // namespace glint::arch::aarch64
