// os/words.hpp: joining names into the reasons os/ back ends give (the rest of the wording is
// the engine's: engine/counting/messages.hpp). Portable.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "os/perf_events.hpp"

namespace glint::os {

// "a, b, c" (or with another separator).
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");
// "cycles, instructions, page-faults".
std::string join_events(const std::vector<Event>& events);

}  // namespace glint::os
