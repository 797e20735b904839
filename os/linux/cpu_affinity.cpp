// Linux: the calling thread's affinity and CPU (sched_*), /proc/stat; through the sys() seam.
#include <cerrno>
#include <string>

#include "os/cpu_affinity.hpp"
#include "os/linux/bit_mask.hpp"
#include "os/linux/sys.hpp"

namespace glint::os {
namespace {

using linux_::BitMask;
using linux_::kBitsPerWord;
using linux_::sys;

}  // namespace

std::vector<unsigned> thread_affinity() {
    // The kernel refuses (EINVAL) a mask smaller than its own CPU count: grow until it fits.
    for (std::size_t words = 1024 / kBitsPerWord; words <= 65536 / kBitsPerWord; words *= 2) {
        BitMask mask(words, 0);
        const int rc = sys().sched_getaffinity(0, words * sizeof(unsigned long), mask.data());
        if (rc < 0 && errno == EINVAL) continue;
        if (rc < 0) return {};
        std::vector<unsigned> cpus;
        for (unsigned cpu = 0; cpu < words * kBitsPerWord; ++cpu)
            if (linux_::has_bit(mask, cpu)) cpus.push_back(cpu);
        return cpus;
    }
    return {};
}

int set_thread_affinity(const std::vector<unsigned>& cpus) {
    if (cpus.empty()) return EINVAL;
    const BitMask mask = linux_::bit_mask(cpus);
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
