// No OS back end: the environment is unknown (the topology, the placement, the CPUs and the
// thread's use of them: numa_topology.cpp, cpu_affinity.cpp, thread_usage.cpp).
#include "os/environment.hpp"

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

}  // namespace glint::os
