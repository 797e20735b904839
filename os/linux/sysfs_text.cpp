#include "os/linux/sysfs_text.hpp"

#include <cerrno>
#include <cstdlib>

#include "os/cpu_list.hpp"
#include "os/linux/sys.hpp"

namespace glint::os::linux_ {

std::optional<std::string> read_trimmed(const std::string& path) {
    std::string text;
    if (!read_small_file(path, text)) return std::nullopt;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t'))
        text.pop_back();
    return text;
}

std::optional<long long> read_integer(const std::string& path) {
    const auto text = read_trimmed(path);
    if (!text || text->empty()) return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const long long value = std::strtoll(text->c_str(), &end, 10);
    if (errno != 0 || end != text->c_str() + text->size()) return std::nullopt;
    return value;
}

std::optional<std::vector<unsigned>> read_cpu_list_file(const std::string& path) {
    const auto text = read_trimmed(path);
    if (!text) return std::nullopt;
    return parse_cpu_list(*text);
}

}  // namespace glint::os::linux_
