// No OS back end: the thread's and the process's CPU time are unknown.
#include "os/thread_usage.hpp"

namespace glint::os {

std::int64_t thread_cpu_ns() { return -1; }
std::int64_t process_cpu_ns() { return -1; }
std::int64_t children_cpu_ns() { return -1; }
ThreadSwitches thread_switches() { return {}; }

}  // namespace glint::os
