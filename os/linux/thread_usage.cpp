// Linux: the calling thread's CPU clock and context switches, through the sys() seam.
#include <sys/resource.h>
#include <time.h>

#include "os/linux/sys.hpp"
#include "os/thread_usage.hpp"

namespace glint::os {

std::int64_t thread_cpu_ns() {
    timespec ts{};
    if (linux_::sys().clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return -1;
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::int64_t process_cpu_ns() {
    timespec ts{};
    if (linux_::sys().clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return -1;
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::int64_t children_cpu_ns() {
    rusage usage{};
    if (linux_::sys().getrusage(RUSAGE_CHILDREN, &usage) != 0) return -1;
    const auto ns = [](const timeval& t) {
        return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_usec * 1000;
    };
    return ns(usage.ru_utime) + ns(usage.ru_stime);
}

ThreadSwitches thread_switches() {
    rusage usage{};
    ThreadSwitches s;
    if (linux_::sys().getrusage(RUSAGE_THREAD, &usage) != 0) return s;
    s.ok = true;
    s.voluntary = static_cast<std::uint64_t>(usage.ru_nvcsw);
    s.involuntary = static_cast<std::uint64_t>(usage.ru_nivcsw);
    return s;
}

}  // namespace glint::os
