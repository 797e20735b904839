// tests/support/device_node.hpp (Linux): character devices a test makes in its own TempDir, so
// that no test writes to the host's /dev (tests/hygiene/host_paths.sh checks the sources).
//
//   std::string why;
//   const auto full = glint::test::make_char_device(dir, glint::test::kFullDevice, why);
//   if (!full) return glint::test::skip(why);
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>

#include "support/temp_dir.hpp"

namespace glint::test {

struct CharDevice {
    const char* name;
    unsigned major;
    unsigned minor;
};
inline constexpr CharDevice kNullDevice{"null", 1, 3};  // what /dev/null is
inline constexpr CharDevice kFullDevice{"full", 1,
                                        7};  // what /dev/full is: writes fail with ENOSPC

// Makes `d` as <dir>/<d.name> and returns its path; nullopt when mknod is refused or the node
// cannot be opened (a nodev mount), with `why` saying so for glint::test::skip.
inline std::optional<std::string> make_char_device(const TempDir& dir, CharDevice d,
                                                   std::string& why) {
    const std::string path = dir.file(d.name);
    if (::mknod(path.c_str(), S_IFCHR | 0666, makedev(d.major, d.minor)) != 0) {
        why = std::string("mknod of a ") + d.name + " device in " + dir.path.string() +
              " was refused (" + std::strerror(errno) +
              "): run as root or with CAP_MKNOD to check it";
        return std::nullopt;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        why = std::string("the ") + d.name + " device made in " + dir.path.string() +
              " cannot be opened (" + std::strerror(errno) + "): its file system is mounted nodev";
        return std::nullopt;
    }
    ::close(fd);
    return path;
}

}  // namespace glint::test
