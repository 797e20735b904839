// os/perf_probes.hpp: facts about the machine that explain what the counting layer can do.
//
// These only observe (sysfs listings, procfs values, tracefs ids, whether a library loads);
// the engine turns them into Status values with reasons and remedies. Linux implements them
// in os/linux/perf_probes.cpp, other systems answer "not on this OS" (os/other/perf_events.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace glint::os {

inline constexpr const char* kPmuSysfsRoot = "/sys/bus/event_source/devices";

// The PMUs the kernel registered (/sys/bus/event_source/devices).
struct PmuInventory {
    bool listed = false;               // the directory could be read
    std::vector<std::string> devices;  // every PMU, sorted ("breakpoint", "cpu", "software", ...)
    std::vector<std::string>
        cpu_pmus;  // the ones that are CPU PMUs (cpu, cpu_core, armv8_pmuv3_0, ...)
};

// Lists `root`. A CPU PMU is one named cpu/cpu_core/cpu_atom or one that publishes a cycles
// event (events/cpu-cycles or events/cpu_cycles).
PmuInventory list_pmus(const std::string& root = kPmuSysfsRoot);

// The highest precise_ip a CPU PMU under `root` advertises (its caps/max_precise: x86 PEBS and
// AMD IBS publish it), or nullopt when none does (arm64's PMU driver publishes nothing and
// accepts any precise_ip without honouring it, so only this file says precise sampling exists).
std::optional<int> pmu_max_precise(const std::string& root = kPmuSysfsRoot);

// kernel.perf_event_paranoid, or nullopt when it cannot be read.
std::optional<int> perf_event_paranoid();

// Whether tracepoint events can be counted here: tracefs mounted, an id readable, and a
// counting perf event on it accepted by the kernel.
struct TracepointProbe {
    enum class Outcome { countable, no_tracefs, id_unreadable, open_refused, not_supported };
    Outcome outcome = Outcome::not_supported;
    std::string tracefs;  // the mount used ("/sys/kernel/tracing"), empty when none
    std::string id_path;  // the id file probed
    int error = 0;        // errno of the failing step
};
TracepointProbe probe_tracepoint_counting();

// Whether a shared library can be loaded with dlopen (and, when given, a symbol found).
struct LibraryProbe {
    bool loaded = false;
    bool supported = true;  // false: this OS has no such library at all (no remedy applies)
    std::string soname;
    std::string error;           // dlerror() text when not loaded
    std::optional<int> version;  // the value of an `int f(void)` version function, when asked
};
// version_function: name of an `int f(void)` to call (e.g. "pfm_get_version"), or nullptr.
LibraryProbe probe_library(const char* soname, const char* version_function = nullptr);

}  // namespace glint::os
