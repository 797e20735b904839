#include "engine/report/color.hpp"

namespace glint::engine::report {

bool paints(std::string_view mode, bool terminal, const char* no_color, const char* term) {
    if (mode == "always") return true;
    if (mode == "never") return false;
    const bool refused = no_color != nullptr && *no_color != '\0';
    const bool dumb = term != nullptr && std::string_view(term) == "dumb";
    return terminal && !refused && !dumb;
}

std::string painted(std::string_view text, std::string_view style) {
    const std::size_t first = text.find_first_not_of(' ');
    if (first == std::string_view::npos) return std::string(text);
    const std::size_t last = text.find_last_not_of(' ') + 1;
    std::string out(text.substr(0, first));
    out += style;
    out += text.substr(first, last - first);
    out += kResetStyle;
    out += text.substr(last);
    return out;
}

std::string without_escapes(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] != '\x1b' || i + 1 >= text.size() || text[i + 1] != '[') {
            out += text[i++];
            continue;
        }
        i += 2;
        while (i < text.size() && !(static_cast<unsigned char>(text[i]) >= 0x40 &&
                                    static_cast<unsigned char>(text[i]) <= 0x7E))
            ++i;
        ++i;  // the final byte
    }
    return out;
}

}  // namespace glint::engine::report
