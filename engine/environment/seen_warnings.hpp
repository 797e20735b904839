// engine/environment/seen_warnings.hpp: each environment warning said in full once. A run whose
// table is on a terminal remembers the checks whose warnings it showed in full (one check name a
// line in a state file); a later such run says those checks' warnings in one brief line and only
// the other checks' in full. Piped output (a CI log, a file) always has every warning in full,
// and JSON meta.environment always has them all.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/environment/checks.hpp"

namespace glint::engine {

// The state file: $GLINT_STATE_DIR/environment-seen, else $XDG_STATE_HOME/glint/..., else
// $HOME/.local/state/glint/...; nullopt when none of them is set.
std::optional<std::string> seen_warnings_path();

// The check names in the file (empty when it cannot be read).
std::vector<std::string> read_seen_checks(const std::string& path);

// Adds `checks` to the file, creating its folder; best effort (a read-only home leaves every
// run's warnings in full).
void remember_checks(const std::string& path, const std::vector<std::string>& checks);

// What a warning found, briefly: its problem up to the first ": " or ", " ("ASLR is on").
std::string brief_problem(const EnvironmentWarning& warning);

// The header's warning lines: each warning whose check is not in `seen` in full (warning_line),
// then the others in one line, "environment (said in full before): ASLR is on · ... — in full:
// remove <path>; none: --quiet-environment".
std::vector<std::string> warning_lines(const std::vector<EnvironmentWarning>& warnings,
                                       const std::vector<std::string>& seen,
                                       const std::string& path);

}  // namespace glint::engine
