#include "engine/report/text.hpp"

#include <algorithm>

#include "os/terminal.hpp"

namespace glint::engine::report {

namespace {

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// Length of the CSI sequence starting at text[i] (text[i] == ESC), or 1 for a lone ESC.
std::size_t escape_length(std::string_view text, std::size_t i) {
    if (i + 1 >= text.size() || text[i + 1] != '[') return 1;
    std::size_t j = i + 2;
    while (j < text.size()) {
        unsigned char c = static_cast<unsigned char>(text[j]);
        ++j;
        if (c >= 0x40 && c <= 0x7E) break;  // the final byte
    }
    return j - i;
}

}  // namespace

std::size_t display_width(std::string_view text) {
    std::size_t width = 0;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '\x1b') {
            i += escape_length(text, i);
            continue;
        }
        if (!is_continuation(static_cast<unsigned char>(text[i]))) ++width;
        ++i;
    }
    return width;
}

std::string truncate_to_width(std::string_view text, std::size_t width) {
    if (display_width(text) <= width) return std::string(text);
    if (width == 0) return {};
    // Keep width - 1 code points, then the ellipsis.
    std::size_t kept = 0;
    std::size_t i = 0;
    for (; i < text.size(); ++i) {
        if (is_continuation(static_cast<unsigned char>(text[i]))) continue;
        if (kept == width - 1) break;
        ++kept;
    }
    return std::string(text.substr(0, i)) + "…";
}

std::string pad_right(std::string_view text, std::size_t width) {
    std::string out(text);
    std::size_t w = display_width(text);
    if (w < width) out.append(width - w, ' ');
    return out;
}

std::string pad_left(std::string_view text, std::size_t width) {
    std::size_t w = display_width(text);
    std::string out;
    if (w < width) out.append(width - w, ' ');
    out += text;
    return out;
}

std::string repeat(std::string_view glyph, std::size_t count) {
    std::string out;
    out.reserve(glyph.size() * count);
    for (std::size_t i = 0; i < count; ++i) out += glyph;
    return out;
}

PointSplit split_at_point(std::string_view cell) {
    std::size_t point = cell.find('.');
    if (point == std::string_view::npos) return {display_width(cell), 0};
    return {display_width(cell.substr(0, point)), display_width(cell.substr(point))};
}

std::vector<std::string> wrap_to_width(std::string_view line, std::size_t width,
                                       std::string_view indent) {
    std::vector<std::string> lines;
    std::string current;
    std::size_t current_width = 0;
    bool has_word = false;
    // Each word with the spaces before it; a break drops those spaces.
    for (std::size_t start = 0; start < line.size();) {
        const std::size_t first = line.find_first_not_of(' ', start);
        if (first == std::string_view::npos) {
            current += line.substr(start);
            break;
        }
        const std::size_t end = std::min(line.find(' ', first), line.size());
        const std::string_view word = line.substr(start, end - start);
        if (has_word && current_width + display_width(word) > width) {
            lines.push_back(std::move(current));
            current = std::string(indent) + std::string(line.substr(first, end - first));
            current_width = display_width(current);
        } else {
            current += word;
            current_width += display_width(word);
        }
        has_word = true;
        start = end;
    }
    lines.push_back(std::move(current));
    return lines;
}

std::size_t wrap_width(std::FILE* out) {
    const auto columns = os::terminal_columns(out);
    return columns && *columns > 20 ? *columns : kPipedWidth;
}

void print_wrapped(std::FILE* out, std::string_view line, std::string_view indent) {
    for (const auto& part : wrap_to_width(line, wrap_width(out), indent))
        std::fprintf(out, "%s\n", part.c_str());
}

}  // namespace glint::engine::report
