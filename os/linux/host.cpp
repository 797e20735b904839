#include "os/host.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <sstream>

#include "arch/arch.hpp"
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

bool timestamp_counter_is_stable(std::string& why) {
    if constexpr (arch::native::kTimestampConstantRate) {
        why = std::string(arch::native::kTimestampName) + " is architecturally constant-rate";
        return true;
    }
    std::string source;
    if (linux_::read_small_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
                                source) &&
        source.rfind("tsc", 0) == 0) {
        why = "the kernel's clocksource is the TSC";
        return true;
    }
    std::string cpuinfo;
    if (linux_::read_small_file("/proc/cpuinfo", cpuinfo) &&
        cpuinfo.find(" constant_tsc") != std::string::npos &&
        cpuinfo.find(" nonstop_tsc") != std::string::npos) {
        why = "the CPU reports constant_tsc and nonstop_tsc";
        return true;
    }
    why =
        "the kernel does not use the TSC as its clocksource and the CPU does not report an "
        "invariant TSC";
    return false;
}

}  // namespace glint::os
