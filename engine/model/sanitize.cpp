#include "engine/model/sanitize.hpp"

#include <cstdio>

namespace glint::engine::sanitize {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the well-formed UTF-8 sequence at text[i] (Unicode table 3-7), or 0 when the byte
// there does not start one.
std::size_t sequence_length(std::string_view text, std::size_t i) {
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b = at(i);
    if (b < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (b >= 0xC2 && b <= 0xDF) n = 2;
    else if (b == 0xE0) n = 3, lo = 0xA0;
    else if (b >= 0xE1 && b <= 0xEC) n = 3;
    else if (b == 0xED) n = 3, hi = 0x9F;
    else if (b >= 0xEE && b <= 0xEF) n = 3;
    else if (b == 0xF0) n = 4, lo = 0x90;
    else if (b >= 0xF1 && b <= 0xF3) n = 4;
    else if (b == 0xF4) n = 4, hi = 0x8F;
    else return 0;
    if (i + n > text.size()) return 0;
    if (at(i + 1) < lo || at(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
    return n;
}

// Calls on_char(bytes, code point) for each character of valid_utf8(text).
template <class F>
void for_each_char(std::string_view text, F&& on_char) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = sequence_length(text, i);
        if (n == 0) {
            on_char(kReplacement, 0xFFFDu);
            ++i;
            continue;
        }
        unsigned cp = static_cast<unsigned char>(text[i]) & (n == 1 ? 0x7F : 0x7F >> n);
        for (std::size_t k = 1; k < n; ++k)
            cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
        on_char(text.substr(i, n), cp);
        i += n;
    }
}

bool is_control(unsigned cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// Invisible characters that reorder or hide text: the bidirectional marks, embeddings,
// overrides and isolates (U+202E shows a name reversed), zero-width space, word joiner, BOM.
bool is_hidden_format(unsigned cp) {
    return cp == 0x061C || cp == 0x200B || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x202A && cp <= 0x202E) || cp == 0x2060 || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0xFEFF;
}

// Appends c's HTML entity when c is & < > (or, with quotes, " '); false otherwise. Markdown
// takes these entities as text, so both kinds share them.
bool append_entity(std::string& out, char c, bool quotes) {
    switch (c) {
        case '&':
            out += "&amp;";
            return true;
        case '<':
            out += "&lt;";
            return true;
        case '>':
            out += "&gt;";
            return true;
        case '"':
            if (quotes) out += "&quot;";
            return quotes;
        case '\'':
            if (quotes) out += "&#39;";
            return quotes;
        default:
            return false;
    }
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = sequence_length(text, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string valid_utf8(std::string_view text) {
    if (is_valid_utf8(text)) return std::string(text);
    std::string out;
    for_each_char(text, [&](std::string_view bytes, unsigned) { out += bytes; });
    return out;
}

std::string terminal(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for_each_char(text, [&](std::string_view bytes, unsigned cp) {
        if (is_hidden_format(cp)) {  // shown by name: "<U+202E>"
            char name[16];
            std::snprintf(name, sizeof name, "<U+%04X>", cp);
            out += name;
        } else if (!is_control(cp)) {
            out += bytes;
        } else if (cp ==
                   '\t') {  // a terminal shows a tab as blank space: so does this, in one column
            out += ' ';
        } else if (cp < 0x20 || cp == 0x7F) {  // Control Pictures: U+2400 + c, DEL U+2421
            const unsigned pic = cp == 0x7F ? 0x2421 : 0x2400 + cp;
            out += static_cast<char>(0xE0 | (pic >> 12));
            out += static_cast<char>(0x80 | ((pic >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (pic & 0x3F));
        } else {
            out += kReplacement;
        }
    });
    return out;
}

std::string markdown(std::string_view text) {
    const std::string safe = terminal(text);
    const auto alnum = [&](std::size_t i) {
        const char c = i < safe.size() ? safe[i] : ' ';
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    };
    std::string out;
    for (std::size_t i = 0; i < safe.size(); ++i) {
        const char c = safe[i];
        if (c == '_' && i > 0 && alnum(i - 1) &&
            alnum(i + 1)) {  // intraword: never emphasis in GFM
            out += c;
            continue;
        }
        if (append_entity(out, c, false)) continue;
        switch (c) {
            case '\\':
            case '`':
            case '*':
            case '_':
            case '[':
            case ']':
            case '~':
            case '|':
                out += '\\';
                out += c;
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string csv(std::string_view text) {
    std::string field = terminal(text);
    if (!field.empty() && std::string_view("=+-@").find(field.front()) != std::string_view::npos)
        field.insert(field.begin(), '\'');
    const bool quote = field.find_first_of(",\"") != std::string::npos ||
                       (!field.empty() && (field.front() == ' ' || field.back() == ' '));
    if (!quote) return field;
    std::string out = "\"";
    for (char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string html(std::string_view text) {
    std::string out;
    for (char c : terminal(text))
        if (!append_entity(out, c, true)) out += c;
    return out;
}

void append_json_string(std::string& out, std::string_view text) {
    out += '"';
    for_each_char(text, [&](std::string_view bytes, unsigned cp) {
        switch (cp) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (is_control(cp)) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", cp);
                    out += buf;
                } else {
                    out += bytes;
                }
        }
    });
    out += '"';
}

std::string invalid_utf8_note(const std::vector<std::string_view>& names) {
    std::size_t count = 0;
    std::string_view first;
    for (std::string_view name : names)
        if (!is_valid_utf8(name) && count++ == 0) first = name;
    if (count == 0) return {};
    return std::to_string(count) + (count == 1 ? " case name is" : " case names are") +
           " not valid UTF-8 (the first: '" + terminal(first) +
           "'): every output writes U+FFFD in place of each invalid byte, and --bench-baseline and "
           "glint-compare match the row by that spelling";
}

}  // namespace glint::engine::sanitize
