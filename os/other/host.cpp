#include "os/host.hpp"

#include <thread>

namespace glint::os {

// No OS back end: only what the C++ library knows.
HostFacts host_facts() {
    HostFacts h;
    h.os = "unknown";
    h.cpus = std::thread::hardware_concurrency();
    return h;
}

bool timestamp_counter_is_stable(std::string& why) {
    why = "no OS back end to vouch for the timestamp counter";
    return false;
}

}  // namespace glint::os
