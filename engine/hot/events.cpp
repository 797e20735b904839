#include "engine/hot/events.hpp"

#include <variant>

#include <fmt/format.h>

#include "catalog/event_selector.hpp"
#include "engine/counting/event_naming.hpp"

namespace glint::hot::detail {
namespace {

constexpr os::Event kAll[] = {
    os::Event::cycles,         os::Event::instructions,     os::Event::branches,
    os::Event::branch_misses,  os::Event::cache_references, os::Event::cache_misses,
    os::Event::page_faults,    os::Event::task_clock,       os::Event::context_switches,
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
    if (catalog::is_event_selector(name)) {
        const auto parsed = catalog::parse_event_selector(name);
        if (const auto* bad = std::get_if<catalog::SelectorError>(&parsed)) {
            found.error = bad->message;
            return found;
        }
        const engine::counting::ResolvedEvent resolved =
            engine::counting::resolve_event(std::get<catalog::EventSelector>(parsed));
        if (!resolved.ok) {
            found.error = fmt::format("'{}': {}", name, resolved.reason);
            found.remedy = resolved.remedy;
            return found;
        }
        found.spec = resolved.spec;
        return found;
    }
    found.error = fmt::format("unknown event '{}'", name);
    found.remedy = "known events: " + known_event_names() + "; or raw:r<hex>, pfm:<name>";
    return found;
}

}  // namespace glint::hot::detail
