// engine/environment/checks.hpp: the environment facts (os/environment.hpp) judged. Each
// problem is one warning with its remedy: one header line each (unless --quiet-environment);
// JSON meta.environment always records facts and warnings.
//
// Checks, in order: governor, boost, smt, pinning, isolation, load (>= kBusyLoad), hypervisor,
// nmi-watchdog, aslr, thp, paranoid; at the end, load again and core-speed (core_speed.hpp). A
// fact that is unknown is never a problem; on an OS without a back end there is one warning:
// unknown.
// Rationale and details: docs/rationale.md, "engine/environment/checks.hpp".
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
std::optional<EnvironmentWarning> check_end_load(const os::LoadAverage& start,
                                                 const os::LoadAverage& end);

// "environment: <problem> — <remedy>"
std::string warning_line(const EnvironmentWarning& warning);

// meta.environment: every fact (null when unknown), the load at start and end, the warnings
// and whether the header showed them.
Json environment_json(const os::EnvironmentFacts& facts, const os::LoadAverage& end,
                      const std::vector<EnvironmentWarning>& warnings, bool quiet);

}  // namespace glint::engine
