#include "os/host.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <sstream>

#include "os/linux/sys.hpp"

namespace glint::os {

HostFacts host_facts() {
    HostFacts h;
    utsname u{};
    if (uname(&u) == 0) {
        h.hostname = u.nodename;
        h.os = u.sysname;
        h.kernel = u.release;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    h.cpus = n > 0 ? static_cast<unsigned>(n) : 0;
    std::string cpuinfo;
    if (linux_::read_small_file("/proc/cpuinfo", cpuinfo)) {
        std::istringstream in(cpuinfo);
        std::string line;
        while (std::getline(in, line)) {
            // x86: "model name"; arm64 kernels have no model name, only "CPU part" etc.
            if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
                auto colon = line.find(':');
                if (colon != std::string::npos) {
                    h.cpu_model = line.substr(line.find_first_not_of(" \t", colon + 1));
                    break;
                }
            }
        }
    }
    return h;
}

}  // namespace glint::os
