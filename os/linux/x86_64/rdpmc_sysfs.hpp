// os/linux/x86_64/rdpmc_sysfs.hpp: the kernel's user-rdpmc policy, per core PMU, for disclosure.
//
// x86 kernels expose /sys/bus/event_source/devices/<pmu>/rdpmc: "cpu" on most parts, one
// file per core PMU on hybrid ones ("cpu_core", "cpu_atom", ...; there is no "cpu" there).
// This reads whatever is present; it does not decide anything: the mmap page's
// cap_user_rdpmc and index are what grant a read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace glint::os::linux_ {

struct RdpmcSetting {
    std::string pmu;    // the PMU directory name: "cpu", "cpu_core", "cpu_atom", ...
    std::string path;   // the file read
    int value = -1;     // 0, 1, 2 (or another integer a future kernel writes); -1: not read
    std::string error;  // why value is -1
};

// Every <sysfs_root>/bus/event_source/devices/<pmu>/rdpmc, sorted by PMU name. Empty when
// there is none (no x86 core PMU exposed, e.g. a VM without a virtual PMU, or not x86).
std::vector<RdpmcSetting> read_rdpmc_settings(const std::string& sysfs_root = "/sys");

// What a value means, in words.
std::string_view rdpmc_meaning(int value);

// One line for the run header and JSON meta, e.g.
//   "cpu/rdpmc=1 (user rdpmc allowed while the process has a perf event mmapped)"
//   "cpu_atom/rdpmc=1, cpu_core/rdpmc=1 (...)"   (one meaning when the values agree)
//   "no rdpmc file in /sys/bus/event_source/devices (no x86 core PMU exposed)"
std::string describe_rdpmc(const std::vector<RdpmcSetting>& settings,
                           const std::string& sysfs_root = "/sys");

}  // namespace glint::os::linux_
