// No OS back end: the environment is unknown, and the topology with it.
#include <cerrno>

#include "os/cpu_affinity.hpp"
#include "os/environment.hpp"
#include "os/numa.hpp"
#include "os/thread_usage.hpp"
#include "os/topology.hpp"

namespace glint::os {

EnvironmentFacts read_environment(const SystemRoots&, std::vector<unsigned> cpus) {
    EnvironmentFacts f;
    f.unknown_why =
        "glint has no back end for this OS: governor, boost, SMT, isolation, load, "
        "hypervisor and kernel settings are unknown";
    f.cpus = std::move(cpus);
    return f;
}

LoadAverage read_load_average(const SystemRoots&) { return {}; }

std::vector<unsigned> thread_affinity() { return {}; }
int set_thread_affinity(const std::vector<unsigned>&) { return ENOSYS; }
int current_cpu() { return -1; }
std::vector<CpuTimes> read_cpu_times(const SystemRoots&) { return {}; }

std::int64_t thread_cpu_ns() { return -1; }
std::int64_t process_cpu_ns() { return -1; }
std::int64_t children_cpu_ns() { return -1; }
ThreadSwitches thread_switches() { return {}; }

PagePlacement page_placement(const void*, std::size_t) {
    PagePlacement p;
    p.error = ENOSYS;
    return p;
}
int bind_memory_to_nodes(const std::vector<unsigned>&) { return ENOSYS; }

Topology read_topology(const std::string&, unsigned cpu) {
    Topology t;
    t.cpu = cpu;
    return t;
}
std::vector<NumaNode> read_numa_nodes(const std::string&) { return {}; }

}  // namespace glint::os
