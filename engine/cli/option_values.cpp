#include "engine/cli/option_values.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include "engine/cli/ranges.hpp"

namespace glint::engine {

std::vector<std::string> split_list(std::string_view text) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string_view::npos) comma = text.size();
        std::string item(text.substr(start, comma - start));
        if (!item.empty()) items.push_back(std::move(item));
        start = comma + 1;
    }
    return items;
}

[[noreturn]] void fail_flag(std::string_view flag, const std::string& what) {
    throw UsageError(std::string(flag) + ": " + what);
}

void require_one_of(std::string_view flag, std::string_view value,
                    std::initializer_list<std::string_view> allowed) {
    if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return;
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    fail_flag(flag, "'" + std::string(value) + "' is not one of " + list);
}

unsigned parse_cpu_or_node(std::string_view flag, std::string_view value, std::string_view form) {
    std::string text(value);
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        fail_flag(flag, "'" + text + "' is not a number; expected " + std::string(flag) + "=" +
                            std::string(form));
    errno = 0;
    const unsigned long long n = std::strtoull(text.c_str(), nullptr, 10);
    if (errno != 0 || n > kMaxCpuOrNode)
        fail_flag(flag, text + " is out of range (0 to " + std::to_string(kMaxCpuOrNode) + ")");
    return static_cast<unsigned>(n);
}

const char* perf_read_name(PerfRead r) {
    switch (r) {
        case PerfRead::automatic:
            return "auto";
        case PerfRead::rdpmc:
            return "rdpmc";
        case PerfRead::syscall:
            return "syscall";
        case PerfRead::compare:
            return "compare";
    }
    return "auto";
}

Json json_strings(const std::vector<std::string>& items) {
    Json a = Json::array();
    for (const auto& i : items) a.push_back(i);
    return a;
}

Json json_count_or_null(const std::optional<std::uint64_t>& n) { return n ? Json(*n) : Json{}; }

}  // namespace glint::engine
