// engine/tiers/events/selectors.hpp: raw: and pfm: selectors from the command line to event
// encodings, and the checks that run before anything is measured.
//
// raw:r<hex> becomes a PERF_TYPE_RAW event with that config; pfm:NAME is encoded by libpfm4
// (os/pfm.hpp, loaded at the first pfm: selector). A malformed selector, or a pfm: name the
// loaded libpfm does not know, is a usage error (exit 2, one line naming the selector). Without
// libpfm a pfm: name cannot be checked: its column degrades at open with the loader's reason.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/event_selector.hpp"
#include "os/perf_events.hpp"

namespace glint::engine::events {

// The --metrics selectors of `family`, parsed, in first-seen order without duplicates. Globs
// ("raw:*") are not selectors to open (they pick among opened columns) and malformed ones are
// left to check_event_selectors.
std::vector<catalog::EventSelector> family_selectors(const std::vector<std::string>& metrics,
                                                     catalog::EventSelector::Family family);

struct ResolvedEvent {
    bool ok = false;
    os::EventSpec spec;       // name = the selector text
    std::string encoding;     // "PERF_TYPE_RAW config 0xc0" / "skl::INST_RETIRED:ANY_P = type 4 config 0xc0"
    std::string reason;       // why not (ok == false)
    std::string remedy;
    bool library_absent = false;  // libpfm could not be loaded
};
ResolvedEvent resolve_event(const catalog::EventSelector& selector);

// The first bad raw:/pfm: selector in --metrics as one line naming it, or nullopt.
std::optional<std::string> check_event_selectors(const std::vector<std::string>& metrics);

// For --list-metrics: how raw: and pfm: selectors resolve on this host (eventNaming present or
// absent, and why).
std::vector<std::string> event_naming_lines();

}  // namespace glint::engine::events
