// os/linux/sysfs_text.hpp: one value from a sysfs/procfs file, read through the sys() seam.
// Internal to os/linux.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace glint::os::linux_ {

// The file's text without trailing white space; nullopt when it cannot be read.
std::optional<std::string> read_trimmed(const std::string& path);
// The file's whole text as a decimal integer; nullopt when unreadable or not a number.
std::optional<long long> read_integer(const std::string& path);
// The file's text as a CPU (or node) list; nullopt when unreadable or malformed.
std::optional<std::vector<unsigned>> read_cpu_list_file(const std::string& path);

}  // namespace glint::os::linux_
