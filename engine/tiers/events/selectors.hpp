// engine/tiers/events/selectors.hpp: the raw: and pfm: selectors of --metrics, and the checks
// that run before anything is measured (their encoding: engine/counting/event_naming.hpp).
//
// A malformed selector, or a pfm: name the loaded libpfm does not know, is a usage error (exit
// 2, one line naming the selector). Without libpfm a pfm: name cannot be checked: its column
// degrades at open with the loader's reason.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/event_selector.hpp"

namespace glint::engine::events {

// The --metrics selectors of `family`, parsed, in first-seen order without duplicates. Globs
// ("raw:*") are not selectors to open (they pick among opened columns) and malformed ones are
// left to check_event_selectors.
std::vector<catalog::EventSelector> family_selectors(const std::vector<std::string>& metrics,
                                                     catalog::EventSelector::Family family);

// The first bad raw:/pfm: selector in --metrics as one line naming it, or nullopt.
std::optional<std::string> check_event_selectors(const std::vector<std::string>& metrics);

}  // namespace glint::engine::events
