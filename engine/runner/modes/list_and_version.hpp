// engine/runner/modes/list_and_version.hpp: --list and --version. --list runs the selected bodies
// in discovery mode (nothing measured, no iter callable or bench_case called) and prints every
// selected case: its path and labels, one per line, in the form test mode prints and --filter
// accepts ("lookup/find [op=find,size=10]"); --format=json prints {glint, cases: [{path,
// registration, name, kind, labels}]} where name is the row name --bench-json gives the case.
#pragma once

#include "engine/cli/run_plan.hpp"

namespace glint::engine {

// Returns the exit status.
int print_case_list(const CaseRun& selected, bool json);

// "glint <version>" (the CMake project version). Returns the exit status.
int print_version();

}  // namespace glint::engine
