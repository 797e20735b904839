// os/os.hpp: the one place that picks the OS back end.
//
// glint::os::user_page is this OS's protocol for reading a counter from user space: on Linux the
// perf mmap page (os/linux/mmap_page.hpp: UserPage, read_page, PageReading); elsewhere a stub
// whose pages never grant a user read (os/other/mmap_page.hpp). <glint/hot.hpp> reads through it.
//
// The back end is GLINT_OS, configured once in CMake and compiled into
// <glint/detail/config.hpp>; the Linux back end needs a compiler that targets Linux.
#pragma once

#include <glint/detail/config.hpp>

#if defined(GLINT_CONFIG_OS_linux)
#if !defined(__linux__)
#error "glint was configured with GLINT_OS=linux for a target that is not Linux: reconfigure with -DGLINT_OS=other"
#endif
#include <glint/detail/os/linux/mmap_page.hpp>
namespace glint::os {
namespace user_page = linux_;
}
#else
#include <glint/detail/os/other/mmap_page.hpp>
namespace glint::os {
namespace user_page = other;
}
#endif
