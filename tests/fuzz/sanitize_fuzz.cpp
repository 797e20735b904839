// libFuzzer target: the output sanitisers (engine/model/sanitize). For any bytes: every output
// is valid UTF-8; terminal text holds no C0 byte, DEL, C1 code point or bidirectional override,
// embedding or isolate, and is a fixed point;
// a markdown cell holds no unescaped | and no < or >; a CSV field starts no formula and is
// unquoted only when it holds no , or "; HTML holds no < > " '; a JSON string parses back to
// valid_utf8 of the input; valid UTF-8 input is kept by valid_utf8.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/model/json.hpp"
#include "engine/model/sanitize.hpp"

using namespace glint::engine;

namespace {

void require(bool ok) {
    if (!ok) __builtin_trap();
}

// `shown`: text a person reads (not a JSON literal, which keeps format characters as data).
bool terminal_safe(const std::string& text, bool shown = true) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        const auto next = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        if (c < 0x20 || c == 0x7F || (c == 0xC2 && next >= 0x80 && next <= 0x9F)) return false;
        // No bidirectional override, embedding or isolate (U+202A..U+202E, U+2066..U+2069).
        const auto third = i + 2 < text.size() ? static_cast<unsigned char>(text[i + 2]) : 0;
        if (shown && c == 0xE2 &&
            ((next == 0x80 && third >= 0xAA && third <= 0xAE) ||
             (next == 0x81 && third >= 0xA6 && third <= 0xA9)))
            return false;
    }
    return sanitize::is_valid_utf8(text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    const std::string valid = sanitize::valid_utf8(text);
    require(sanitize::is_valid_utf8(valid));
    if (sanitize::is_valid_utf8(text)) require(valid == text);

    const std::string term = sanitize::terminal(text);
    require(terminal_safe(term));
    require(sanitize::terminal(term) == term);

    const std::string md = sanitize::markdown(text);
    require(terminal_safe(md));
    require(md.find_first_of("<>") == std::string::npos);
    for (std::size_t i = 0; i < md.size(); ++i) {
        if (md[i] == '\\') ++i;  // an escaped character
        else require(md[i] != '|' && md[i] != '`' && md[i] != '*' && md[i] != '[');
    }

    const std::string csv = sanitize::csv(text);
    require(terminal_safe(csv));
    const bool quoted = !csv.empty() && csv.front() == '"';
    const std::string_view field = quoted ? std::string_view(csv).substr(1) : std::string_view(csv);
    require(field.empty() ||
            std::string_view("=+-@").find(field.front()) == std::string_view::npos);
    if (!quoted) require(csv.find_first_of(",\"") == std::string::npos);

    const std::string html = sanitize::html(text);
    require(terminal_safe(html));
    require(html.find_first_of("<>\"'") == std::string::npos);

    std::string json;
    sanitize::append_json_string(json, text);
    require(terminal_safe(json, false));
    require(Json::parse(json).as_string() == valid);
    return 0;
}
