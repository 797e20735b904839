#include "engine/tiers/events/selectors.hpp"

#include <algorithm>
#include <variant>

#include <fmt/format.h>

#include "catalog/glob.hpp"
#include "engine/counting/event_naming.hpp"

namespace glint::engine::events {

using catalog::EventSelector;
using counting::resolve_event;
using counting::ResolvedEvent;

std::vector<EventSelector> family_selectors(const std::vector<std::string>& metrics,
                                            EventSelector::Family family) {
    std::vector<EventSelector> out;
    for (const auto& text : metrics) {
        if (!catalog::is_event_selector(text) || catalog::has_glob_chars(text)) continue;
        auto parsed = catalog::parse_event_selector(text);
        auto* s = std::get_if<EventSelector>(&parsed);
        if (s == nullptr || s->family != family) continue;
        const bool seen = std::any_of(out.begin(), out.end(),
                                      [&](const EventSelector& o) { return o.text == s->text; });
        if (!seen) out.push_back(std::move(*s));
    }
    return out;
}

std::optional<std::string> check_event_selectors(const std::vector<std::string>& metrics) {
    for (const auto& text : metrics) {
        if (!catalog::is_event_selector(text) || catalog::has_glob_chars(text)) continue;
        auto parsed = catalog::parse_event_selector(text);
        if (auto* error = std::get_if<catalog::SelectorError>(&parsed)) return error->message;
        const auto& selector = std::get<EventSelector>(parsed);
        if (selector.family != EventSelector::Family::pfm) continue;
        const ResolvedEvent r = resolve_event(selector);
        if (!r.ok && !r.library_absent)
            return fmt::format("--metrics selector '{}': {}", selector.text, r.reason);
    }
    return std::nullopt;
}

}  // namespace glint::engine::events
