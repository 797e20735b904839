// os/thread_usage.hpp on Windows: GetThreadTimes and GetProcessTimes (kernel + user time, in
// 100 ns units, advanced by the scheduler's clock tick: about 15.6 ms on Windows, 10 ms under
// Wine). QueryThreadCycleTime counts cycles, not time, so it is not used for these
// (docs/windows.md). Windows reports no context-switch counts per thread: unknown.
#include "os/thread_usage.hpp"

#include "os/windows/win32.hpp"

namespace glint::os {

std::int64_t thread_cpu_ns() {
    FILETIME created, exited, kernel, user;
    if (!GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user)) return -1;
    return windows::filetime_ns(kernel) + windows::filetime_ns(user);
}

std::int64_t process_cpu_ns() {
    FILETIME created, exited, kernel, user;
    if (!GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user)) return -1;
    return windows::filetime_ns(kernel) + windows::filetime_ns(user);
}

std::int64_t children_cpu_ns() { return -1; }  // no such sum on Windows (job objects aside)

ThreadSwitches thread_switches() { return {}; }

}  // namespace glint::os
