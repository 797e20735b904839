// The portable rules of os/files.hpp, compiled for every OS back end.
#include "os/files.hpp"

#include <charconv>
#include <string>
#include <utility>
#include <vector>

namespace glint::os {

std::optional<OutputMode> output_mode_for(FileKind kind) {
    switch (kind) {
        case FileKind::absent:
        case FileKind::regular:
            return OutputMode::replace;
        case FileKind::fifo:
        case FileKind::character_device:
            return OutputMode::in_place;
        case FileKind::directory:
        case FileKind::block_device:
        case FileKind::socket:
        case FileKind::other:
            return std::nullopt;
    }
    return std::nullopt;
}

std::string size_words(std::size_t bytes) {
    if (bytes < (std::size_t{1} << 20)) return std::to_string(bytes) + " bytes";
    return std::to_string((bytes + (std::size_t{1} << 20) - 1) >> 20) + " MiB";
}

std::optional<int> named_descriptor(std::string_view path) {
    if (path == "-" || path == "/dev/stdout") return 1;
    if (path == "/dev/stderr") return 2;
    for (std::string_view prefix :
         {std::string_view("/dev/fd/"), std::string_view("/proc/self/fd/")}) {
        if (path.substr(0, prefix.size()) != prefix) continue;
        const std::string_view digits = path.substr(prefix.size());
        int fd = -1;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
        if (error == std::errc() && end == digits.data() + digits.size() && !digits.empty() &&
            fd >= 0)
            return fd;
    }
    return std::nullopt;
}

std::optional<std::string> shared_output_problem(
    const std::vector<std::pair<std::string, const OutputTarget*>>& outputs) {
    for (std::size_t i = 0; i < outputs.size(); ++i)
        for (std::size_t j = i + 1; j < outputs.size(); ++j) {
            const OutputTarget* a = outputs[i].second;
            const OutputTarget* b = outputs[j].second;
            if (!a || !b || !same_output(*a, *b)) continue;
            const std::string& x = outputs[i].first;
            const std::string& y = outputs[j].first;
            return (a->given == b->given ? x + " and " + y + " both write '" + a->given + "'"
                                         : x + " ('" + a->given + "') and " + y + " ('" + b->given +
                                               "') write the same file") +
                   "; give each its own file";
        }
    return std::nullopt;
}

}  // namespace glint::os
