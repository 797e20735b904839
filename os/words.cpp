#include "os/words.hpp"

namespace glint::os {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
    std::string out;
    for (const auto& item : items) {
        if (!out.empty()) out += separator;
        out += item;
    }
    return out;
}

std::string join_events(const std::vector<Event>& events) {
    std::vector<std::string> names;
    for (Event e : events) names.emplace_back(event_name(e));
    return join(names);
}

}  // namespace glint::os
