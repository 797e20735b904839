#include "os/cpu_list.hpp"

#include <algorithm>
#include <charconv>

namespace glint::os {
namespace {

bool parse_number(std::string_view text, unsigned& out) {
    if (text.empty()) return false;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::optional<std::vector<unsigned>> parse_cpu_list(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\n");
    if (first == std::string_view::npos) return std::vector<unsigned>{};
    text = text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
    std::vector<unsigned> cpus;
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        if (comma != std::string_view::npos && text.empty()) return std::nullopt;  // "1,"
        const std::size_t dash = item.find('-');
        unsigned low = 0, high = 0;
        if (dash == std::string_view::npos) {
            if (!parse_number(item, low)) return std::nullopt;
            high = low;
        } else if (!parse_number(item.substr(0, dash), low) ||
                   !parse_number(item.substr(dash + 1), high) || high < low) {
            return std::nullopt;
        }
        if (high - low > 65536) return std::nullopt;  // no machine has that many CPUs
        for (unsigned c = low; c <= high; ++c) cpus.push_back(c);
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

std::string format_cpu_list(std::vector<unsigned> cpus) {
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    std::string out;
    for (std::size_t i = 0; i < cpus.size();) {
        std::size_t j = i;
        while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
        if (!out.empty()) out += ',';
        out += std::to_string(cpus[i]);
        if (j > i) out += '-' + std::to_string(cpus[j]);
        i = j + 1;
    }
    return out;
}

}  // namespace glint::os
