// engine/runner/simulate.hpp: --simulate's re-execution. A --bench run asked to simulate, not
// yet under Valgrind, runs this program again under Callgrind (valgrind_command: its dumps in a
// private folder, removed afterwards) and returns that run's exit status; nullopt: the run goes
// on here (already under Valgrind, or no Callgrind to start: the simulated tier says why).
#pragma once

#include <optional>

#include "engine/cli/run_plan.hpp"

namespace glint::engine {

std::optional<int> run_simulated(int argc, char** argv, const RunPlan& plan);

}  // namespace glint::engine
