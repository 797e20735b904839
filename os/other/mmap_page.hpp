// <glint/detail/os/other/mmap_page.hpp>: no user-space counter page off Linux (an honest stub).
//
// The same names the Linux page protocol offers, so code written against glint::os::user_page
// compiles everywhere; a read never grants a user read (user_read == false), so callers take
// their system-call path, which on these systems reports ENOSYS.
#pragma once

#include <cstdint>

namespace glint::os::other {

struct UserPage {};  // never mapped here

enum class PageTimes : std::uint8_t { none, published, extrapolated };
inline constexpr unsigned kMaxTornReads = 64;
// Whether the arch's thread pointer tells this OS's threads apart (not assumed here).
inline constexpr bool kThreadPointerPerThread = false;

struct PageReading {
    std::int64_t count = 0;
    std::uint64_t enabled = 0;
    std::uint64_t running = 0;
    std::uint32_t index = 0;
    bool user_read = false;
    bool torn = false;
};

template <class Arch, PageTimes Times>
inline PageReading read_page_with(const UserPage*) {
    return {};
}

template <class Arch, bool WithTimes = true>
inline PageReading read_page(const UserPage*) {
    return {};
}

}  // namespace glint::os::other
