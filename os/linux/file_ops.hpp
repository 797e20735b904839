// os/linux/file_ops.hpp: the small POSIX pieces os/linux/files.cpp and
// os/linux/output_target.cpp share (internal to the Linux back end).
#pragma once

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "os/files.hpp"

namespace glint::os::detail {

inline std::string reason(int error) { return std::strerror(error); }

inline std::string quoted(const std::string& path) { return "'" + path + "'"; }

inline FileKind kind_of(mode_t mode) {
    if (S_ISREG(mode)) return FileKind::regular;
    if (S_ISDIR(mode)) return FileKind::directory;
    if (S_ISFIFO(mode)) return FileKind::fifo;
    if (S_ISCHR(mode)) return FileKind::character_device;
    if (S_ISBLK(mode)) return FileKind::block_device;
    if (S_ISSOCK(mode)) return FileKind::socket;
    return FileKind::other;
}

inline const char* kind_words(FileKind kind) {
    switch (kind) {
        case FileKind::directory:
            return "a directory";
        case FileKind::block_device:
            return "a block device";
        case FileKind::socket:
            return "a socket";
        case FileKind::fifo:
            return "a FIFO (named pipe)";
        case FileKind::character_device:
            return "a character device";
        default:
            return "not a regular file";
    }
}

inline std::string dir_of(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

inline std::string base_of(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A new, exclusively created file "<dir>/.<base>.XXXXXX"; returns its descriptor or -1.
inline int make_temp(const std::string& target, std::string& temp) {
    temp = dir_of(target) + "/." + base_of(target) + ".XXXXXX";
    return ::mkostemp(temp.data(), O_CLOEXEC);
}

}  // namespace glint::os::detail
