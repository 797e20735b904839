// os/linux/proc_maps.hpp: the mappings of /proc/<pid>/maps, parsed.
//
// One Mapping per line: "start-end perms offset dev inode [path]". Only the fields the
// symbolizer needs are kept; a line that does not parse is skipped (the kernel's format is
// stable, so that means a future extension, not an error to stop on).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace glint::os::linux_ {

struct Mapping {
    std::uint64_t start = 0;
    std::uint64_t end = 0;          // exclusive
    std::uint64_t file_offset = 0;  // offset in the file of `start`
    bool executable = false;
    std::string path;  // "" anonymous; "[vdso]", "[stack]", ... for the kernel's pseudo-files
};

std::vector<Mapping> parse_maps(std::string_view text);

// /proc/self/maps, read now; empty when it cannot be read.
std::vector<Mapping> read_self_maps();

}  // namespace glint::os::linux_
