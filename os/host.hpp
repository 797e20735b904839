// os/host.hpp: facts about the machine a run happens on (for the run header and JSON meta).
// Implemented per OS (os/linux/host.cpp, os/other/host.cpp). Unknown facts are empty strings.
#pragma once

#include <string>

namespace glint::os {

struct HostFacts {
    std::string hostname;
    std::string os;         // "Linux"
    std::string kernel;     // release, e.g. "6.1.0-18-amd64"
    std::string cpu_model;  // e.g. "AMD EPYC 7B13"
    unsigned cpus = 0;      // online logical CPUs
};

HostFacts host_facts();

// Whether the CPU's timestamp counter (TSC, CNTVCT) ticks at a constant rate on every CPU, so
// tick differences convert to nanoseconds with one factor. `why` says what was checked.
bool timestamp_counter_is_stable(std::string& why);

}  // namespace glint::os
