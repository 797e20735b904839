// <glint/detail/arch/generic/pmu.hpp>: an ISA with no user-space counter reads. Every counter
// goes through read(2); read_pmc is never called because kHasUserCounterReads is false.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace glint::arch::generic {

struct Pmu {
    static constexpr const char* kName = "generic";
    static constexpr const char* kTimestampName = "none";
    static constexpr bool kHasTimestamp = false;
    static constexpr bool kTimestampConstantRate = false;
    static std::uint64_t timestamp_begin() { return 0; }
    static std::uint64_t timestamp_end() { return 0; }
    static void read_barrier() {}
    static constexpr const char* kUserReadName = "none";
    static constexpr bool kHasUserCounterReads = false;
    static std::uint64_t read_pmc(std::uint32_t) { std::abort(); }
    static std::uint64_t read_timestamp() { return 0; }
    static constexpr bool kHasThreadPointer = false;  // the OS's threads are told apart otherwise
    static const void* thread_pointer() { return nullptr; }
};

// No user reads: every slot of a <glint/hot.hpp> group uses the same (never executed) policy.
template <std::size_t Slot>
using SlotPmu = Pmu;

}  // namespace glint::arch::generic
