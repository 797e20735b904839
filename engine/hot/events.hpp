// engine/hot/events.hpp: the event names <glint/hot.hpp> opens groups by.
//
// Generic perf names (perf's own spelling: cycles, instructions, branches, branch-misses,
// cache-references, cache-misses, page-faults, task-clock, context-switches, cpu-migrations).
// The raw:r<hex> and pfm:<name> selectors of --metrics are recognised and refused with a
// reason until os::PerfGroup can open events by raw config.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "os/perf_events.hpp"

namespace glint::hot::detail {

struct EventLookup {
    std::optional<os::Event> event;  // set when the name resolved
    std::string error;               // why not, naming the offending name
    std::string remedy;              // e.g. the list of known names
};

EventLookup lookup_event(std::string_view name);

// "cycles, instructions, ..." (every generic name, in os::Event order).
std::string known_event_names();

}  // namespace glint::hot::detail
