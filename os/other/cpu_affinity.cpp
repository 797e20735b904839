// No OS back end: where the thread may run and how busy each CPU is are unknown.
#include <cerrno>

#include "os/cpu_affinity.hpp"

namespace glint::os {

std::vector<unsigned> thread_affinity() { return {}; }
int set_thread_affinity(const std::vector<unsigned>&) { return ENOSYS; }
int current_cpu() { return -1; }
std::vector<CpuTimes> read_cpu_times(const SystemRoots&) { return {}; }

}  // namespace glint::os
