// os/os.hpp: the one place that picks the OS back end.
//
// glint::os::user_page is this OS's protocol for reading a counter from user space: on Linux the
// perf mmap page (os/linux/mmap_page.hpp: UserPage, read_page, PageReading); elsewhere a stub
// whose pages never grant a user read (os/other/mmap_page.hpp). <glint/hot.hpp> reads through it.
#pragma once

#if defined(__linux__)
#define GLINT_OS_LINUX 1
#include "os/linux/mmap_page.hpp"
namespace glint::os {
namespace user_page = linux_;
}
#else
#define GLINT_OS_OTHER 1
#include "os/other/mmap_page.hpp"
namespace glint::os {
namespace user_page = other;
}
#endif
