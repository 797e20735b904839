// engine/hot/events.hpp: the event names <glint/hot.hpp> opens groups by.
//
// Generic perf names (perf's own spelling: cycles, instructions, branches, branch-misses,
// cache-references, cache-misses, page-faults, task-clock, context-switches, cpu-migrations),
// or the raw:r<hex> and pfm:<name> selectors of --metrics (catalog/event_selector.hpp, resolved
// like the event tiers do: engine/tiers/events/selectors.hpp, libpfm4 loaded on first use).
// A group is all generic names or all selectors: os::PerfGroup opens one kind per group.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "os/perf_events.hpp"

namespace glint::hot::detail {

struct EventLookup {
    std::optional<os::Event> event;     // a generic name
    std::optional<os::EventSpec> spec;  // a raw:/pfm: selector, encoded
    std::string error;                  // why neither, naming the offending name
    std::string remedy;                 // e.g. the list of known names
};

EventLookup lookup_event(std::string_view name);

// "cycles, instructions, ..." (every generic name, in os::Event order).
std::string known_event_names();

}  // namespace glint::hot::detail
