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

}  // namespace glint::os
