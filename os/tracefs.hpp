// os/tracefs.hpp: tracepoint ids from tracefs, as perf events.
//
// Linux (os/linux/tracefs.cpp): tracefs is looked for at /sys/kernel/tracing, then
// /sys/kernel/debug/tracing (the first with an events/ directory); a tracepoint's id is the
// number in events/<system>/<name>/id, which is root-only on most systems. Reading goes
// through the os/linux/sys.hpp seam. Nothing is mounted here: a missing tracefs is reported.
// Other systems (os/other/tracefs.cpp) have no tracepoints.
#pragma once

#include <string>
#include <vector>

#include "os/perf_events.hpp"

namespace glint::os {

std::vector<std::string> default_tracefs_roots();

// The first root with an events/ directory; empty when none (errno-free: absence is the answer).
std::string find_tracefs(const std::vector<std::string>& roots = default_tracefs_roots());

struct TracepointLookup {
    enum class Outcome {
        found,          // event: type tracepoint, config = the id
        missing,        // no such tracepoint (ENOENT on its id file)
        unreadable,     // the id file exists but cannot be read (EACCES, ...) or parsed
        not_supported,  // this OS has no tracepoints
    };
    Outcome outcome = Outcome::not_supported;
    std::string path;  // the id file
    int error = 0;     // errno of the failing read
    EventSpec event;   // name "<system>:<name>"
};

// Looks up <system>:<name> ("raw_syscalls", "sys_enter") under `tracefs`.
TracepointLookup lookup_tracepoint(const std::string& tracefs, const std::string& system,
                                   const std::string& name);

}  // namespace glint::os
