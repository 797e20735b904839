// os/callgrind.hpp: Valgrind's Callgrind, seen from the program it runs (the simulated tier,
// engine/tiers/simulated/) and from the program that starts it (--simulate's re-execution).
//
// The client requests are Valgrind's own instruction sequences (its header picks them per ISA):
// no-ops outside Valgrind. Without <valgrind/callgrind.h> at build time callgrind_built() is
// false and every request does nothing. The process half (finding valgrind, running it with
// the caller's standard streams, the dump folder) is per OS: os/linux/callgrind_run.cpp,
// os/other/callgrind_run.cpp (no child processes: says so).
#pragma once

#include <string>
#include <vector>

namespace glint::os {

bool callgrind_built();
bool running_on_valgrind();
void callgrind_zero_stats();
void callgrind_toggle_collect();
void callgrind_dump(const char* reason);

// The first executable `name` on $PATH ("" none; `why` says what was searched).
std::string find_on_path(const std::string& name, std::string& why);
// This program's own executable (for re-executing it); "" with `why` when unknown.
std::string self_executable(std::string& why);
// A new private folder under $TMPDIR (or /tmp); "" with `why` on failure.
std::string make_private_folder(const std::string& prefix, std::string& why);
// Removes the plain files directly in `folder`, then the folder (what the folder above made).
void remove_private_folder(const std::string& folder);

struct Waited {
    bool started = false;
    int status = 1;  // exit code, or 128 + signal
    std::string problem;
};
// Runs argv (argv[0] a path) with the caller's standard streams and environment plus `extra`
// ("NAME=value"), and waits for it; interrupts reach it through the terminal's process group.
Waited run_inheriting(const std::vector<std::string>& argv, const std::vector<std::string>& extra);

}  // namespace glint::os
