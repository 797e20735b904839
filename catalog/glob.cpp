#include "catalog/glob.hpp"

#include <string>
#include <vector>

namespace glint::catalog {
namespace {

// Matches one glob element at glob[g] against character c; sets `next` to the index after the
// element. '*' is handled by the caller.
bool element_matches(std::string_view glob, std::size_t g, char c, std::size_t& next) {
    if (glob[g] == '?') {
        next = g + 1;
        return true;
    }
    if (glob[g] == '[') {
        std::size_t i = g + 1;
        bool negate = i < glob.size() && (glob[i] == '!' || glob[i] == '^');
        if (negate) ++i;
        bool matched = false;
        bool first = true;
        for (; i < glob.size() && (first || glob[i] != ']'); ++i, first = false) {
            if (i + 2 < glob.size() && glob[i + 1] == '-' && glob[i + 2] != ']') {
                if (glob[i] <= c && c <= glob[i + 2]) matched = true;
                i += 2;
            } else if (glob[i] == c) {
                matched = true;
            }
        }
        if (i < glob.size()) {  // found the closing ']'
            next = i + 1;
            return matched != negate;
        }
        // Unterminated class: treat '[' literally.
    }
    next = g + 1;
    return glob[g] == c;
}

// The set of glob positions reachable after consuming `text` (NFA simulation).
std::vector<bool> reachable_states(std::string_view glob, std::string_view text) {
    const std::size_t n = glob.size();
    std::vector<bool> states(n + 1, false);
    auto close = [&](std::vector<bool>& s) {  // '*' may match nothing
        for (std::size_t g = 0; g < n; ++g)
            if (s[g] && glob[g] == '*') s[g + 1] = true;
    };
    states[0] = true;
    close(states);
    for (char c : text) {
        std::vector<bool> next_states(n + 1, false);
        for (std::size_t g = 0; g < n; ++g) {
            if (!states[g]) continue;
            if (glob[g] == '*') {
                next_states[g] = true;
                continue;
            }
            std::size_t next = 0;
            if (element_matches(glob, g, c, next)) next_states[next] = true;
        }
        close(next_states);
        states.swap(next_states);
    }
    return states;
}

}  // namespace

bool glob_match(std::string_view glob, std::string_view text) {
    return reachable_states(glob, text)[glob.size()];
}

bool glob_may_match_extension(std::string_view glob, std::string_view prefix, char separator) {
    std::string extended(prefix);
    extended += separator;
    auto states = reachable_states(glob, extended);
    for (bool s : states)
        if (s) return true;
    return false;
}

bool has_glob_chars(std::string_view text) {
    return text.find_first_of("*?[") != std::string_view::npos;
}

}  // namespace glint::catalog
