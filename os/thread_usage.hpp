// os/thread_usage.hpp: what the calling thread has used: its CPU time and its context
// switches. Read between samples and around cases (never inside a timed window).
//
// Linux (os/linux/thread_usage.cpp): clock_gettime(CLOCK_THREAD_CPUTIME_ID) (a system call,
// not served by the vDSO: its cost is measured by the engine and stated) and
// getrusage(RUSAGE_THREAD), through the sys() seam. Other systems: unknown (-1, ok false).
#pragma once

#include <cstdint>

namespace glint::os {

// CPU time the calling thread has consumed, in ns; -1 when unavailable.
std::int64_t thread_cpu_ns();

// CPU time the whole process has consumed (every thread, live or exited; not child processes),
// in ns; -1 when unavailable. Linux: clock_gettime(CLOCK_PROCESS_CPUTIME_ID).
std::int64_t process_cpu_ns();

// CPU time of the process's child processes that have ended and been waited for, in ns; -1 when
// unavailable. Linux: getrusage(RUSAGE_CHILDREN), user + system.
std::int64_t children_cpu_ns();

struct ThreadSwitches {
    bool ok = false;                // getrusage answered
    std::uint64_t voluntary = 0;    // ru_nvcsw: the thread blocked (sleep, I/O, a lock)
    std::uint64_t involuntary = 0;  // ru_nivcsw: the thread was preempted
};

// The calling thread's context switches so far.
ThreadSwitches thread_switches();

}  // namespace glint::os
