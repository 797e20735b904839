// engine/tiers/simulated/simulated_status.hpp: whether this run can count on Callgrind's
// simulated CPU (capability "simulated-cpu", the tier's open), and how --simulate starts it.
//
// A --simulate bench run re-executes the program as valgrind_command() says, with
// kFolderVariable naming the private folder the dumps go to; the run inside finds itself under
// Valgrind with that variable set. The cache geometry is fixed, so counts do not depend on the
// host's caches. Rationale and measurements: docs/simulated.md.
#pragma once

#include <string>
#include <vector>

#include "engine/model/status.hpp"

namespace glint::engine::simulated {

inline constexpr const char* kFolderVariable = "GLINT_SIMULATE_DIR";
inline constexpr const char* kGeometry =
    "I1 32 KiB 8-way, D1 32 KiB 8-way, LL 8 MiB 16-way, 64-byte lines";

// argv for valgrind (its path first) running `program` with `args`, its dumps under `folder`.
std::vector<std::string> valgrind_command(const std::string& valgrind, const std::string& folder,
                                          const std::string& program,
                                          const std::vector<std::string>& args);

// Where this run's dumps go: the folder --simulate made ("" when not started by it).
std::string dump_folder();

// "simulated-cpu": available (here, or by re-executing under valgrind), or why not.
Status simulated_status();

}  // namespace glint::engine::simulated
