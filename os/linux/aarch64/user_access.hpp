// os/linux/aarch64/user_access.hpp: what Linux needs before EL0 may read an arm64 PMU counter.
//
// From the kernel's Documentation/arch/arm64/perf.rst: the sysctl kernel.perf_user_access must
// be 1; the event must be opened with attr.config1 bit 1 (user access) on the core PMU's own
// type (an armv8_* PMU in sysfs); config1 bit 0 asks for a 64-bit counter, which the kernel
// refuses with EOPNOTSUPP when the event counters are 32-bit (no PMUv3p5: chained counters are
// incompatible with user access). The perf page then shows index != 0 while the event is on a
// counter; index 0 means "read it with read(2)".
//
// Everything here compiles on every host (it is only Linux), so its logic is unit-tested on the
// build machine; the reads themselves (os/linux/aarch64/bracket.hpp) exist only in arm64 builds.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "os/perf_events.hpp"

struct perf_event_attr;

namespace glint::os::linux_ {

// attr.config1 bits of the arm64 PMU driver.
inline constexpr std::uint64_t kArm64Config1Counter64 = std::uint64_t{1} << 0;
inline constexpr std::uint64_t kArm64Config1UserAccess = std::uint64_t{1} << 1;

// Architected ARMv8 common event numbers (Arm ARM, "common event numbers"), used with the
// armv8 PMU's own type.
inline constexpr std::uint64_t kArmv8InstRetired = 0x08;
inline constexpr std::uint64_t kArmv8CpuCycles = 0x11;

inline constexpr const char* kPerfUserAccessPath = "/proc/sys/kernel/perf_user_access";
inline constexpr const char* kPerfUserAccessRemedy = "sysctl kernel.perf_user_access=1";
inline constexpr const char* kEventSourceDevices = "/sys/bus/event_source/devices";

// ---- kernel.perf_user_access --------------------------------------------------------------------

// The sysctl as read: value 0 or 1 (the kernel accepts only those); -1 when it could not be read
// (errno in `error`: ENOENT means a kernel without arm64 user access).
struct UserAccessSysctl {
    int value = -1;
    int error = 0;
};

// Parses the file's text ("1\n"); -1 when it is not a plain non-negative integer.
int parse_sysctl_int(const std::string& text);

UserAccessSysctl read_perf_user_access(const char* path = kPerfUserAccessPath);

// Whether to request user access, and if not, why and what fixes it.
struct UserAccessDecision {
    bool allowed = false;
    std::string reason;  // empty when allowed
    std::string remedy;  // empty when there is none to offer
};

UserAccessDecision decide_user_access(const UserAccessSysctl& sysctl);

// ---- the PMU type from sysfs ------------------------------------------------------------------

// The core PMU events must be opened on for user access.
struct Armv8Pmu {
    bool listed = false;  // devices_dir could be listed
    bool found = false;
    std::string name;            // e.g. "armv8_pmuv3_0"
    std::uint32_t type = 0;      // attr.type
    std::size_t candidates = 0;  // > 1: a heterogeneous (big.LITTLE) system, pin to name's cpus
    std::string reason;          // why not found
};

// Orders the event-source device names that are arm64 core PMUs: "armv8_pmuv3*" first, then
// other "armv8_*" (a named core, e.g. armv8_cortex_a72), each group sorted. Pure.
std::vector<std::string> armv8_pmu_candidates(const std::vector<std::string>& device_names);

// Lists `devices_dir`, picks the first candidate and reads its `type` file.
Armv8Pmu find_armv8_pmu(const std::string& devices_dir = kEventSourceDevices);

// ---- opening ------------------------------------------------------------------------------------

struct UserAccessOpen {
    int fd = -1;
    int error = 0;                 // errno of the last attempt when fd < 0
    bool counter64 = false;        // the open that succeeded asked for a 64-bit counter
    bool fell_back_to_32 = false;  // 64-bit was asked for and refused with EOPNOTSUPP
};

// Opens `attr` with config1 bit 1 set (and bit 0 when want_64bit); when the kernel refuses the
// 64-bit counter with EOPNOTSUPP, opens again asking for a 32-bit one. The other config1 bits of
// `attr` are kept. Through the sys() seam.
UserAccessOpen open_user_access_event(const perf_event_attr& attr, pid_t pid, int cpu, int group_fd,
                                      unsigned long flags, bool want_64bit);

// What a group open asking for user access (GroupSpec::user_access) should do here:
//  - no armv8 core PMU under `devices_dir` (x86, or arm64 without a PMU driver): not_applicable,
//    nothing is asked and config1 stays 0;
//  - more than one (big.LITTLE): refused, since a task's events follow it across core types
//    and a counter index of one PMU means nothing on the other;
//  - kernel.perf_user_access not 1: refused, with the reason and (for 0) the remedy;
//  - otherwise requested, for `pmu`.
// Fills mode, pmu, reason and remedy.
UserAccessGrant plan_user_access(const std::string& devices_dir,
                                 const char* sysctl_path = kPerfUserAccessPath);

// ---- the layout a specialised bracket can use ------------------------------------------------

struct Arm64Layout {
    bool cycles_first = false;  // slot 0 is the cycle counter (index 32)
    unsigned cycles_width = 0;  // its width (32 or 64), when cycles_first
    unsigned events = 0;        // then slots at indices 1..events, in order
    unsigned event_width = 0;   // 32 or 64 for every event slot (0 when there are none)
    bool specialised = false;   // false: use the generic bracket
};

// The layout of a group whose pages show `indices` and `widths` (group order). Specialised when
// every slot is readable and they are: optionally 32 first, then 1, 2, ..., the event slots all
// of one width (32 or 64; the cycle counter may differ: it is 64-bit wherever a 64-bit counter
// was asked for), and at most `max_slots` slots. Pure.
Arm64Layout arm64_layout_of(const std::uint32_t* indices, const unsigned* widths, std::size_t count,
                            std::size_t max_slots);

}  // namespace glint::os::linux_
