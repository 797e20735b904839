// os/environment.hpp: what the machine is doing that moves benchmark numbers, read as facts.
//
// Nothing here judges: the engine turns facts into warnings and remedies
// (engine/environment/). Linux (os/linux/environment.cpp) reads sysfs and procfs under
// configurable roots, so tests hand it fake trees; other systems (os/other/) know nothing and
// say so (`known` false). A fact that cannot be read is absent (nullopt, empty), never a
// guess.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace glint::os {

// Where the kernel's pseudo file systems are mounted (tests: fake trees).
struct SystemRoots {
    std::string sys = "/sys";
    std::string proc = "/proc";
};

struct LoadAverage {
    double one = NAN, five = NAN, fifteen = NAN;  // /proc/loadavg; NaN when unreadable
};

struct EnvironmentFacts {
    bool known = false;       // false: no back end for this OS; every fact below is absent
    std::string unknown_why;  // why, when not known

    std::vector<unsigned> cpus;  // the CPUs the run may use (as given to read_environment)
    // cpufreq governor of each of `cpus` that has a cpufreq policy (none in most VMs).
    std::vector<std::pair<unsigned, std::string>> governors;
    // Frequency boost: cpufreq/boost (1 = on), else intel_pstate/no_turbo (0 = on).
    std::optional<bool> boost;
    std::string boost_source;        // the file it came from
    std::optional<bool> smt_active;  // /sys/devices/system/cpu/smt/active
    // CPUs the kernel keeps ordinary tasks off (isolcpus: cpu/isolated) and without the
    // scheduler tick (cpu/nohz_full); nullopt when the file is absent.
    std::optional<std::vector<unsigned>> isolated, nohz_full;
    LoadAverage load;
    // Hypervisor: /sys/hypervisor/type, the CPU's "hypervisor" flag in /proc/cpuinfo, or a DMI
    // vendor/product naming a virtual machine.
    bool hypervisor = false;
    std::string hypervisor_name;      // "xen", "KVM", "QEMU", ...; "" when no source names it
    std::string hypervisor_source;    // where it was seen
    std::optional<bool> cpu_pmu;      // a CPU PMU is registered (/sys/bus/event_source/devices)
    std::optional<int> nmi_watchdog;  // kernel.nmi_watchdog
    std::optional<int> aslr;          // kernel.randomize_va_space (0 off, 2 full)
    // This process runs with the ADDR_NO_RANDOMIZE personality (setarch -R): no ASLR for it,
    // whatever kernel.randomize_va_space says.
    std::optional<bool> no_randomize;
    std::optional<int> perf_event_paranoid;  // kernel.perf_event_paranoid
    std::string thp;          // transparent huge pages: "always", "madvise" or "never"; "" unknown
    bool privileged = false;  // effective uid 0 (the paranoid level does not apply to it)
};

// Reads every fact. `cpus` are the CPUs the run may use (its affinity, after any pinning).
EnvironmentFacts read_environment(const SystemRoots& roots, std::vector<unsigned> cpus);

// The load average now (taken at the start and again at the end of a run).
LoadAverage read_load_average(const SystemRoots& roots);

}  // namespace glint::os
