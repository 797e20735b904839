// The environment on Windows: not read yet (the power plan, the hypervisor and the load are the
// facts that would apply: docs/windows.md). Windows keeps no load average.
#include "os/environment.hpp"

namespace glint::os {

EnvironmentFacts read_environment(const SystemRoots&, std::vector<unsigned> cpus) {
    return {.known = false,
            .unknown_why =
                "the Windows back end does not read the environment yet: power plan, "
                "boost, SMT, load and hypervisor are unknown",
            .cpus = std::move(cpus)};
}

LoadAverage read_load_average(const SystemRoots&) { return LoadAverage{}; }

}  // namespace glint::os
