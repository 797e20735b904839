// os/cpu_list.hpp: the kernel's CPU-list notation ("0-3,8,10-11": sysfs cpulist files,
// isolcpus, Cpus_allowed_list) both ways. Portable: pure functions, tested on every host.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace glint::os {

// The CPUs of a list, sorted and without duplicates. Surrounding white space (a sysfs file's
// newline) is ignored; an empty list is no CPU. nullopt when the text is not a CPU list.
std::optional<std::vector<unsigned>> parse_cpu_list(std::string_view text);

// The shortest list for `cpus` (sorted or not): consecutive CPUs as ranges ("0-3,8"); "" when
// empty.
std::string format_cpu_list(std::vector<unsigned> cpus);

}  // namespace glint::os
