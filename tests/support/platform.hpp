// tests/support/platform.hpp: the OS and ISA back ends this build was configured with
// (GLINT_OS, GLINT_ARCH, through <glint/detail/config.hpp>), for a test case that decides at run
// time: an end-to-end case whose point needs Linux skips elsewhere and says why
// (support/skip.hpp). A whole file that needs a platform says so in its name instead
// (tests/CMakeLists.txt).
#pragma once

#include <glint/detail/config.hpp>

#include <string_view>

namespace glint::test {

inline constexpr std::string_view kBuildOs = GLINT_CONFIG_OS_NAME;      // "linux", "other"
inline constexpr std::string_view kBuildArch = GLINT_CONFIG_ARCH_NAME;  // "x86_64", ...
inline constexpr bool kLinux = kBuildOs == "linux";

}  // namespace glint::test
