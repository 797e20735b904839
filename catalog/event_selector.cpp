#include "catalog/event_selector.hpp"

#include <string>

namespace glint::catalog {
namespace {

constexpr std::string_view kRawPrefix = "raw:";
constexpr std::string_view kPfmPrefix = "pfm:";

SelectorError error(std::string_view selector, const std::string& what, std::string_view form) {
    return SelectorError{"--metrics selector '" + std::string(selector) + "': " + what +
                         "; expected " + std::string(form)};
}

bool is_hex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool is_name_char(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == '-' || c == '.' || c == '=';
}

bool ends_with_privilege(std::string_view body) {
    return body.size() >= 2 && body[body.size() - 2] == ':' &&
           (body.back() == 'u' || body.back() == 'k');
}

// Strips a trailing ":u" / ":k" from `body` into `privilege` (a body of at least one more char).
void take_privilege(std::string_view& body, Privilege& privilege) {
    if (body.size() < 3 || !ends_with_privilege(body)) return;
    privilege = body.back() == 'u' ? Privilege::user_only : Privilege::kernel_only;
    body.remove_suffix(2);
}

std::variant<EventSelector, SelectorError> parse_raw(std::string_view selector) {
    constexpr std::string_view form = "raw:r<hex>[:u|:k], e.g. raw:r00c0";
    std::string_view body = selector.substr(kRawPrefix.size());
    EventSelector s;
    s.family = EventSelector::Family::raw;
    s.text = std::string(selector);
    take_privilege(body, s.privilege);
    if (body.empty() || body.front() != 'r')
        return error(selector, "a raw config starts with 'r'", form);
    body.remove_prefix(1);
    if (body.empty()) return error(selector, "no hex digits after 'r'", form);
    if (body.size() > 16) return error(selector, "more than 16 hex digits", form);
    std::uint64_t config = 0;
    for (char c : body) {
        if (!is_hex(c)) return error(selector, std::string("'") + c + "' is not a hex digit", form);
        const int digit = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        config = config << 4 | static_cast<std::uint64_t>(digit);
    }
    s.config = config;
    return s;
}

std::variant<EventSelector, SelectorError> parse_pfm(std::string_view selector) {
    constexpr std::string_view form =
        "pfm:EVENT[:UMASK][:u|:k], e.g. pfm:RETIRED_SSE_AVX_FLOPS:ADD_SUB_FLOPS";
    std::string_view body = selector.substr(kPfmPrefix.size());
    EventSelector s;
    s.family = EventSelector::Family::pfm;
    s.text = std::string(selector);
    take_privilege(body, s.privilege);
    if (ends_with_privilege(body)) return error(selector, "at most one of :u and :k", form);
    if (body.empty()) return error(selector, "no event name", form);
    // An optional "PMU::" prefix, then ':'-separated non-empty components.
    std::string_view rest = body;
    if (const auto pmu = rest.find("::"); pmu != std::string_view::npos) {
        if (pmu == 0) return error(selector, "an empty PMU name before '::'", form);
        for (char c : rest.substr(0, pmu))
            if (!is_name_char(c))
                return error(selector, std::string("'") + c + "' cannot appear in a PMU name",
                             form);
        rest.remove_prefix(pmu + 2);
    }
    std::size_t start = 0;
    while (true) {
        const std::size_t colon = rest.find(':', start);
        const std::string_view part = rest.substr(
            start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
        if (part.empty())
            return error(selector, start == 0 ? "no event name" : "an empty unit mask", form);
        for (char c : part)
            if (!is_name_char(c))
                return error(selector, std::string("'") + c + "' cannot appear in an event name",
                             form);
        if (colon == std::string_view::npos) break;
        start = colon + 1;
    }
    s.event = std::string(body);
    return s;
}

}  // namespace

std::string_view family_source(EventSelector::Family family) {
    return family == EventSelector::Family::raw ? "raw" : "pfm";
}

bool is_event_selector(std::string_view selector) {
    return selector.starts_with(kRawPrefix) || selector.starts_with(kPfmPrefix);
}

std::variant<EventSelector, SelectorError> parse_event_selector(std::string_view selector) {
    if (selector.starts_with(kRawPrefix)) return parse_raw(selector);
    if (selector.starts_with(kPfmPrefix)) return parse_pfm(selector);
    return SelectorError{"--metrics selector '" + std::string(selector) +
                         "' is neither raw:r<hex> nor pfm:EVENT"};
}

}  // namespace glint::catalog
