// tests/support/tracefs.hpp: tracefs for the tests that count syscalls through tracepoints.
//
// A fresh boot leaves tracefs unmounted until something mounts it; a test that needs it must not
// depend on another test having mounted it first (the e2e catalog tests lost their syscall
// columns when they ran before the unit test that mounted it).
#pragma once

#include <string>

#if defined(__linux__)
#include <sys/mount.h>
#include <unistd.h>
#endif

#include "os/tracefs.hpp"

namespace glint::test {

// The tracefs root glint finds (os::find_tracefs). When there is none and the test runs as root,
// tracefs is mounted at /sys/kernel/tracing first, its usual place. Empty when there is still
// none: the caller skips, naming tracefs_missing_reason.
inline std::string ensure_tracefs() {
    std::string found = os::find_tracefs();
#if defined(__linux__)
    if (found.empty() && ::geteuid() == 0) {
        ::mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr);
        found = os::find_tracefs();
    }
#endif
    return found;
}

inline constexpr const char* tracefs_missing_reason =
    "tracefs is not mounted and could not be mounted (mount -t tracefs nodev /sys/kernel/tracing, "
    "as root)";

}  // namespace glint::test
