// <glint/detail/os/os.hpp>: the one place that picks the OS back end.
//
// glint::os::user_page is this OS's protocol for reading a counter from user space: on Linux the
// perf mmap page (<glint/detail/os/linux/mmap_page.hpp>: UserPage, read_page, PageReading);
// elsewhere, Windows included, a stub whose pages never grant a user read (other/mmap_page.hpp).
// glint::os::user_page_policy<A> is what the arch×OS home adds to the arch's policy A for
// read_page (its page_policy.hpp; A itself where there is no home). <glint/hot.hpp> reads
// through both.
//
// The back end is GLINT_OS, configured once in CMake and compiled into
// <glint/detail/config.hpp>; the Linux back end needs a compiler that targets Linux.
#pragma once

#include <glint/detail/config.hpp>

#if defined(GLINT_CONFIG_OS_linux)
#if !defined(__linux__)
#error \
    "glint was configured with GLINT_OS=linux for a target that is not Linux: reconfigure with -DGLINT_OS=other"
#endif
#include <glint/detail/os/linux/mmap_page.hpp>
namespace glint::os {
namespace user_page = linux_;
}
#if defined(GLINT_CONFIG_ARCH_x86_64)
#include <glint/detail/os/linux/x86_64/page_policy.hpp>
namespace glint::os {
template <class ArchPolicy>
using user_page_policy = linux_::x86_64::PagePolicy<ArchPolicy>;
}
#elif defined(GLINT_CONFIG_ARCH_aarch64)
#include <glint/detail/os/linux/aarch64/page_policy.hpp>
namespace glint::os {
template <class ArchPolicy>
using user_page_policy = linux_::aarch64::PagePolicy<ArchPolicy>;
}
#else
namespace glint::os {
template <class ArchPolicy>
using user_page_policy = ArchPolicy;
}
#endif
#else
#if defined(GLINT_CONFIG_OS_windows) && !defined(_WIN32)
#error \
    "glint was configured with GLINT_OS=windows for a target that is not Windows: reconfigure with -DGLINT_OS=other"
#endif
#include <glint/detail/os/other/mmap_page.hpp>
namespace glint::os {
namespace user_page = other;
template <class ArchPolicy>
using user_page_policy = ArchPolicy;
}  // namespace glint::os
#endif
