// os/windows/win32.hpp: <windows.h> as every file of the Windows back end includes it (no min/max
// macros, the lean subset), and the conversions they share.
#pragma once

#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <cstdint>
#include <string>

namespace glint::os::windows {

// A FILETIME (100 ns units) as nanoseconds.
inline std::int64_t filetime_ns(const FILETIME& t) {
    return static_cast<std::int64_t>((std::uint64_t{t.dwHighDateTime} << 32) | t.dwLowDateTime) *
           100;
}

// What GetLastError() said, in words ("the system cannot find the file specified (error 2)").
std::string last_error_text(DWORD error);

}  // namespace glint::os::windows
