#include "engine/profile/function_name.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

namespace glint::engine::profile {
namespace {

constexpr std::string_view kEllipsis = "…";

bool identifier_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The operator tokens a demangled name can spell after "operator", longest first.
constexpr std::array<std::string_view, 39> kOperatorTokens = {
    "->*", "<<=", ">>=", "<=>", "()", "[]", "->", "<<", ">>", "<=", ">=", "==", "!=",
    "&&",  "||",  "++",  "--",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "+",
    "-",   "*",   "/",   "%",   "^",  "&",  "|",  "~",  "!",  "=",  ",",  "<",  ">"};

// literal[i]: name[i] is part of an operator's name ("operator<", "operator()") or of "->",
// so never a bracket.
std::vector<bool> literal_chars(std::string_view name) {
    std::vector<bool> literal(name.size(), false);
    constexpr std::string_view kOperator = "operator";
    for (std::size_t at = name.find(kOperator); at != std::string_view::npos;
         at = name.find(kOperator, at + 1)) {
        const std::size_t after = at + kOperator.size();
        if ((at > 0 && identifier_char(name[at - 1])) || after >= name.size()) continue;
        const std::string_view rest = name.substr(after);
        for (std::string_view token : kOperatorTokens) {
            if (!rest.starts_with(token)) continue;
            for (std::size_t i = 0; i < token.size(); ++i) literal[after + i] = true;
            break;
        }
    }
    for (std::size_t i = 1; i < name.size(); ++i)
        if (name[i] == '>' && name[i - 1] == '-') literal[i] = true;
    return literal;
}

// Template argument lists at nesting depth `depth` and deeper elided to "<…>"; nullopt when the
// angle brackets do not balance (the name is then only cut).
std::optional<std::string> elide_templates(std::string_view name, int depth) {
    const std::vector<bool> literal = literal_chars(name);
    std::string out;
    int level = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool open = c == '<' && !literal[i], close = c == '>' && !literal[i];
        if (open) ++level;
        if (level < depth || (level == depth && (open || close))) {
            out += c;
            if (open && level == depth) out += kEllipsis;
        }
        if (close && --level < 0) return std::nullopt;
    }
    if (level != 0) return std::nullopt;
    return out;
}

int template_depth(std::string_view name) {
    const std::vector<bool> literal = literal_chars(name);
    int level = 0, deepest = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] == '<' && !literal[i]) deepest = std::max(deepest, ++level);
        if (name[i] == '>' && !literal[i]) --level;
    }
    return deepest;
}

// Every outermost parenthesised list elided to "(…)", but for "()" and "(anonymous namespace)".
std::optional<std::string> elide_parameters(std::string_view name) {
    const std::vector<bool> literal = literal_chars(name);
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (name[i] != '(' || literal[i]) {
            out += name[i];
            continue;
        }
        std::size_t end = i;
        for (int level = 0; end < name.size(); ++end) {
            if (literal[end]) continue;
            if (name[end] == '(') ++level;
            if (name[end] == ')' && --level == 0) break;
        }
        if (end == name.size()) return std::nullopt;
        const std::string_view inside = name.substr(i + 1, end - i - 1);
        out += inside.empty() || inside == "anonymous namespace"
                   ? std::string(name.substr(i, end - i + 1))
                   : "(" + std::string(kEllipsis) + ")";
        i = end;
    }
    return out;
}

// Where `name` splits into qualifiers: each "::" outside every bracket, and each space outside
// them that a parameter list follows (a return type's end: "void ns::f(…)"; not "decltype (").
std::vector<std::size_t> qualifier_ends(std::string_view name) {
    const std::vector<bool> literal = literal_chars(name);
    std::vector<std::size_t> ends;  // the index just past each "::" or space
    int level = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (literal[i]) continue;
        if (c == '<' || c == '(' || c == '{' || c == '[') ++level;
        if (c == '>' || c == ')' || c == '}' || c == ']') --level;
        if (level != 0) continue;
        if (c == ':' && i + 1 < name.size() && name[i + 1] == ':') {
            ends.push_back(i + 2);
            ++i;
        } else if (c == ' ' && i + 1 < name.size() && name[i + 1] != '(' &&
                   name.substr(0, i).find("operator") == std::string_view::npos &&
                   name.find('(', i) != std::string_view::npos) {
            ends.push_back(i + 1);  // "void ns::f(…)": the return type ends here
        }
    }
    return ends;
}

std::string cut(std::string_view text, std::size_t width) {
    if (width == 0) return {};
    std::string out;
    std::size_t points = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool starts = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
        if (starts && ++points == width) break;
        out += text[i];
    }
    return out + std::string(kEllipsis);
}

}  // namespace

std::size_t code_points(std::string_view text) {
    std::size_t points = 0;
    for (char c : text) points += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return points;
}

std::string shorten_function_name(std::string_view name, std::size_t width) {
    if (code_points(name) <= width) return std::string(name);
    std::string shortest(name);
    for (int depth = template_depth(name); depth >= 1; --depth) {
        const auto elided = elide_templates(name, depth);
        if (!elided) break;
        shortest = *elided;
        if (code_points(shortest) <= width) return shortest;
    }
    if (const auto elided = elide_parameters(shortest)) {
        shortest = *elided;
        if (code_points(shortest) <= width) return shortest;
    }
    const std::string unqualified = shortest;
    for (std::size_t end : qualifier_ends(unqualified)) {
        const bool after_colons = unqualified.compare(end - 2, 2, "::") == 0;
        shortest = (after_colons ? "…::" : "") + unqualified.substr(end);
        if (code_points(shortest) <= width) return shortest;
    }
    return cut(shortest, width);
}

}  // namespace glint::engine::profile
