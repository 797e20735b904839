// libFuzzer target: the raw:/pfm: selector parser (catalog/event_selector). Any text parses to
// a selector or to an error naming it; a parsed selector keeps its text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "catalog/event_selector.hpp"

using namespace glint::catalog;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const auto parsed = parse_event_selector(text);
    if (const auto* s = std::get_if<EventSelector>(&parsed)) {
        if (s->text != text) __builtin_trap();
        if (!is_event_selector(text)) __builtin_trap();
        (void)family_source(s->family);
    } else if (std::get<SelectorError>(parsed).message.empty()) {
        __builtin_trap();
    }
    return 0;
}
