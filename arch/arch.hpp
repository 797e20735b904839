// <glint/detail/arch/arch.hpp>: the one place that picks the ISA back end. Everything else uses
// glint::arch::native (the policy the OS's page protocol reads counters with) and the
// constants below. Nothing in the arch layer knows about Linux.
//
// The back end is GLINT_ARCH, configured once in CMake and compiled into
// <glint/detail/config.hpp> (installed with the library, so a user's inline code agrees with
// it). The compiler's target must be able to run it: a build configured for one ISA and
// compiled for another stops here.
#pragma once

#include <string_view>

#include <glint/detail/config.hpp>

#if defined(GLINT_CONFIG_ARCH_x86_64)
#include <glint/detail/arch/x86_64/pmu.hpp>
namespace glint::arch {
namespace native_ns = x86_64;
}
#elif defined(GLINT_CONFIG_ARCH_aarch64)
#include <glint/detail/arch/aarch64/pmu.hpp>
namespace glint::arch {
namespace native_ns = aarch64;
}
#else
#include <glint/detail/arch/generic/pmu.hpp>
namespace glint::arch {
namespace native_ns = generic;
}
#endif

namespace glint::arch {

// The ISA the compiler targets, as GLINT_ARCH spells it ("other": none glint has a back end for).
inline constexpr std::string_view kCompilerTarget =
#if defined(__x86_64__)
    "x86_64";
#elif defined(__aarch64__)
    "aarch64";
#else
    "other";
#endif

static_assert(std::string_view(GLINT_CONFIG_ARCH_NAME) == "generic" ||
                  std::string_view(GLINT_CONFIG_ARCH_NAME) == kCompilerTarget,
              "glint was configured for another ISA than the compiler targets: reconfigure with "
              "-DGLINT_ARCH=<the target's ISA> (or generic)");

// Whether the compiler targets the Microsoft x64 calling convention (Windows) rather than the
// System V one: arguments in rcx, rdx, r8, r9, 32 bytes of shadow space the caller reserves, and
// rdi, rsi, xmm6-xmm15 callee-saved. Code emitted at run time follows it.
inline constexpr bool kMicrosoftX64Abi =
#if defined(_WIN64)
    true;
#else
    false;
#endif

// read_pmc(page_index), read_timestamp(), kName, kHasUserCounterReads.
using native = native_ns::Pmu;
// The policy <glint/hot.hpp> reads slot `Slot` of a group with (see each arch's SlotPmu).
template <std::size_t Slot>
using native_slot = native_ns::SlotPmu<Slot>;
}  // namespace glint::arch
