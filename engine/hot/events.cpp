#include "engine/hot/events.hpp"

#include <fmt/format.h>

namespace glint::hot::detail {
namespace {

constexpr os::Event kAll[] = {
    os::Event::cycles,          os::Event::instructions,     os::Event::branches,
    os::Event::branch_misses,   os::Event::cache_references, os::Event::cache_misses,
    os::Event::page_faults,     os::Event::task_clock,       os::Event::context_switches,
    os::Event::cpu_migrations,
};

}  // namespace

std::string known_event_names() {
    std::string out;
    for (os::Event e : kAll) {
        if (!out.empty()) out += ", ";
        out += os::event_name(e);
    }
    return out;
}

EventLookup lookup_event(std::string_view name) {
    EventLookup found;
    for (os::Event e : kAll) {
        if (os::event_name(e) == name) {
            found.event = e;
            return found;
        }
    }
    if (name.starts_with("raw:") || name.starts_with("pfm:")) {
        found.error = fmt::format(
            "'{}': raw: and pfm: selectors cannot be opened by <glint/hot.hpp> in this build "
            "(its groups open generic events only)",
            name);
        found.remedy = "use a generic name: " + known_event_names();
        return found;
    }
    found.error = fmt::format("unknown event '{}'", name);
    found.remedy = "known events: " + known_event_names();
    return found;
}

}  // namespace glint::hot::detail
