// engine/counting/event_naming.hpp: raw: and pfm: selectors to perf event encodings.
//
// raw:r<hex> becomes a PERF_TYPE_RAW event with that config; pfm:NAME is encoded by libpfm4
// (os/pfm.hpp, loaded at the first pfm: selector). Used by the event tiers (their columns) and
// by hot::Group (its names), so both count exactly the same encoding.
#pragma once

#include <string>
#include <vector>

#include "catalog/event_selector.hpp"
#include "os/perf_events.hpp"

namespace glint::engine::counting {

struct ResolvedEvent {
    bool ok = false;
    os::EventSpec spec;  // name = the selector text
    std::string
        encoding;  // "PERF_TYPE_RAW config 0xc0" / "skl::INST_RETIRED:ANY_P = type 4 config 0xc0"
    std::string reason;  // why not (ok == false)
    std::string remedy;
    bool library_absent = false;  // libpfm could not be loaded
};
ResolvedEvent resolve_event(const catalog::EventSelector& selector);

// For --list-metrics: how raw: and pfm: selectors resolve on this host (eventNaming present or
// absent, and why).
std::vector<std::string> event_naming_lines();

}  // namespace glint::engine::counting
