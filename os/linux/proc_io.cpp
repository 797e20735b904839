#include "os/linux/proc_io.hpp"

#include <charconv>
#include <utility>

namespace glint::os::linux_ {
namespace {

constexpr std::pair<std::string_view, ProcessCounter> kFields[] = {
    {"rchar", ProcessCounter::rchar},           {"wchar", ProcessCounter::wchar},
    {"syscr", ProcessCounter::syscr},           {"syscw", ProcessCounter::syscw},
    {"read_bytes", ProcessCounter::read_bytes}, {"write_bytes", ProcessCounter::write_bytes},
};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

}  // namespace

int parse_proc_io(std::string_view text, ProcessSnapshot& snapshot) {
    int filled = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        const std::string_view key = trim(line.substr(0, colon));
        const std::string_view digits = trim(line.substr(colon + 1));
        std::uint64_t value = 0;
        const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
        if (ec != std::errc{} || ptr != digits.data() + digits.size() || digits.empty()) continue;
        for (const auto& [name, counter] : kFields) {
            if (key != name) continue;
            const auto i = static_cast<std::size_t>(counter);
            snapshot.values[i] = value;
            if (!snapshot.present[i]) ++filled;
            snapshot.present[i] = true;
        }
    }
    return filled;
}

}  // namespace glint::os::linux_
