#include "os/linux/proc_maps.hpp"

#include <charconv>

#include "os/linux/sys.hpp"

namespace glint::os::linux_ {
namespace {

bool hex(std::string_view s, std::uint64_t& out) {
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out, 16);
    return ec == std::errc() && ptr == s.data() + s.size();
}

// The next space-separated field of `line` from `at`, skipping runs of spaces.
std::string_view field(std::string_view line, std::size_t& at) {
    while (at < line.size() && line[at] == ' ') ++at;
    const std::size_t start = at;
    while (at < line.size() && line[at] != ' ') ++at;
    return line.substr(start, at - start);
}

}  // namespace

std::vector<Mapping> parse_maps(std::string_view text) {
    std::vector<Mapping> out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = text.substr(start, end - start);
        start = end + 1;
        std::size_t at = 0;
        const std::string_view range = field(line, at);
        const std::string_view perms = field(line, at);
        const std::string_view offset = field(line, at);
        field(line, at);  // device
        field(line, at);  // inode
        const std::size_t dash = range.find('-');
        Mapping m;
        if (dash == std::string_view::npos || perms.size() < 4 ||
            !hex(range.substr(0, dash), m.start) || !hex(range.substr(dash + 1), m.end) ||
            !hex(offset, m.file_offset))
            continue;
        m.executable = perms[2] == 'x';
        while (at < line.size() && line[at] == ' ') ++at;
        m.path = std::string(line.substr(at));
        out.push_back(std::move(m));
    }
    return out;
}

std::vector<Mapping> read_self_maps() {
    std::string text;
    if (!read_small_file("/proc/self/maps", text)) return {};
    return parse_maps(text);
}

}  // namespace glint::os::linux_
