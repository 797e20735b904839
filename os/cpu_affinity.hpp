// os/cpu_affinity.hpp: where the measuring thread may run and where it runs, and how busy each
// CPU is.
//
// Linux (os/linux/cpu_affinity.cpp): sched_getaffinity/sched_setaffinity and sched_getcpu of
// the calling thread, per-CPU times from /proc/stat; every call through the sys() seam. Other
// systems (os/other/): nothing is known (empty, -1, ENOSYS). Parsing /proc/stat and choosing
// the least busy CPU are portable (os/cpu_load.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "os/environment.hpp"

namespace glint::os {

// The CPUs the calling thread may run on, sorted; empty when unknown.
std::vector<unsigned> thread_affinity();

// Restricts the calling thread to `cpus`. Returns 0, or the errno (EINVAL: none of them is
// online or allowed; ENOSYS: not on this OS).
int set_thread_affinity(const std::vector<unsigned>& cpus);

// The CPU the calling thread is running on now; -1 when unknown.
int current_cpu();

// Cumulative time of one CPU from /proc/stat, in the kernel's ticks (USER_HZ).
struct CpuTimes {
    unsigned cpu = 0;
    std::uint64_t busy = 0;   // user + nice + system + irq + softirq + steal
    std::uint64_t total = 0;  // busy + idle + iowait
};

// The "cpuN" lines of a /proc/stat text (the aggregate "cpu" line is skipped).
std::vector<CpuTimes> parse_proc_stat(std::string_view text);

// /proc/stat now; empty when unreadable.
std::vector<CpuTimes> read_cpu_times(const SystemRoots& roots);

// The CPU of `allowed` with the smallest busy share between two readings (ties: the lowest
// number); nullopt when no allowed CPU appears in both.
std::optional<unsigned> least_busy_cpu(const std::vector<CpuTimes>& before,
                                       const std::vector<CpuTimes>& after,
                                       const std::vector<unsigned>& allowed);

// Busy share (0..1) of `cpu` between two readings; NaN when it is missing or no tick passed.
double busy_share(const std::vector<CpuTimes>& before, const std::vector<CpuTimes>& after,
                  unsigned cpu);

}  // namespace glint::os
