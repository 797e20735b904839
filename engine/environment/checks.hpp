// engine/environment/checks.hpp: the environment facts (os/environment.hpp) judged. Each
// problem is one warning with its remedy; the run header prints one line each (unless
// --quiet-environment) and JSON meta.environment always records facts and warnings.
//
// Checks, in this order (a fact that is unknown is never a problem):
//   governor    a run CPU's cpufreq governor is not "performance"
//   boost       frequency boost / turbo is on
//   smt         SMT is active (a sibling thread can share the run's core)
//   pinning     the run may use more than one CPU (--pin)
//   isolation   a run CPU is not isolated (isolcpus), when the kernel says which are
//   load        the 1-minute load average at the start is >= kBusyLoad
//   hypervisor  a hypervisor is present (other guests can take the CPU); the line says whether
//               it exposes a CPU PMU, when that is known
//   nmi-watchdog  the NMI watchdog is on where a CPU PMU exists (it holds a counter)
//   aslr        address-space randomisation is on (layouts, hence timings, differ run to run)
//   thp         transparent huge pages are "always" (page sizes of buffers vary)
//   paranoid    kernel.perf_event_paranoid > 1 for an unprivileged run
// On an OS without a back end there is one: unknown.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "os/environment.hpp"

namespace glint::engine {

inline constexpr double kBusyLoad = 1.0;

struct EnvironmentWarning {
    std::string check;    // the check's name (above)
    std::string problem;  // what was found
    std::string remedy;   // what would fix it
};

std::vector<EnvironmentWarning> check_environment(const os::EnvironmentFacts& facts);

// The load rose to kBusyLoad or beyond during the run (checked at its end; nothing when the
// start was already that busy: its warning said so).
std::optional<EnvironmentWarning> check_end_load(const os::LoadAverage& start, const os::LoadAverage& end);

// "environment: <problem> — <remedy>"
std::string warning_line(const EnvironmentWarning& warning);

// meta.environment: every fact (null when unknown), the load at start and end, the warnings
// and whether the header showed them.
Json environment_json(const os::EnvironmentFacts& facts, const os::LoadAverage& end,
                      const std::vector<EnvironmentWarning>& warnings, bool quiet);

}  // namespace glint::engine
