// Linux: the calling thread's affinity and CPU (sched_*), /proc/stat; through the sys() seam.
#include <cerrno>
#include <climits>
#include <string>

#include "os/cpu_affinity.hpp"
#include "os/linux/sys.hpp"

namespace glint::os {
namespace {

using linux_::sys;
using Mask = std::vector<unsigned long>;
constexpr std::size_t kBitsPerWord = sizeof(unsigned long) * CHAR_BIT;

bool has(const Mask& mask, unsigned cpu) {
    return cpu / kBitsPerWord < mask.size() &&
           (mask[cpu / kBitsPerWord] >> (cpu % kBitsPerWord)) & 1UL;
}

}  // namespace

std::vector<unsigned> thread_affinity() {
    // The kernel refuses (EINVAL) a mask smaller than its own CPU count: grow until it fits.
    for (std::size_t words = 1024 / kBitsPerWord; words <= 65536 / kBitsPerWord; words *= 2) {
        Mask mask(words, 0);
        const int rc = sys().sched_getaffinity(0, words * sizeof(unsigned long), mask.data());
        if (rc < 0 && errno == EINVAL) continue;
        if (rc < 0) return {};
        std::vector<unsigned> cpus;
        for (unsigned cpu = 0; cpu < words * kBitsPerWord; ++cpu)
            if (has(mask, cpu)) cpus.push_back(cpu);
        return cpus;
    }
    return {};
}

int set_thread_affinity(const std::vector<unsigned>& cpus) {
    if (cpus.empty()) return EINVAL;
    unsigned highest = 0;
    for (unsigned c : cpus) highest = c > highest ? c : highest;
    Mask mask(highest / kBitsPerWord + 1, 0);
    for (unsigned c : cpus) mask[c / kBitsPerWord] |= 1UL << (c % kBitsPerWord);
    if (sys().sched_setaffinity(0, mask.size() * sizeof(unsigned long), mask.data()) != 0)
        return errno;
    return 0;
}

int current_cpu() {
    const int cpu = sys().sched_getcpu();
    return cpu < 0 ? -1 : cpu;
}

std::vector<CpuTimes> read_cpu_times(const SystemRoots& roots) {
    std::string text;
    if (!linux_::read_small_file(roots.proc + "/stat", text)) return {};
    return parse_proc_stat(text);
}

}  // namespace glint::os
