// engine/counting/group_opener.hpp: which counting group this run gets, and why.
//
// The policy, in order:
//  1. The seven-event hardware group (cycles leads; instructions, branches, branch-misses,
//     cache-references, cache-misses, page-faults), kernel+user; refused for permission
//     (EACCES/EPERM) → user-only (exclude_kernel), disclosed. A sibling the PMU does not
//     support (ENOENT/EOPNOTSUPP/ENODEV) is dropped on its own, disclosed.
//  2. Calibration handshake: enable, spin ~2 ms, read. running/enabled below 0.98 (or no PMU
//     time at all) reopens the group without the LLC pair, disclosed — unless --perf-scaled,
//     which keeps the full group and labels scaled passes. Still no PMU time: unavailable.
//  3. The leader itself unsupported (no hardware PMU, as in most VMs): the software group
//     (task-clock leads; page-faults, context-switches, cpu-migrations), with the same
//     permission fallback, and a reason naming why the hardware events are absent and what
//     would bring them.
//  4. Anything else: unavailable, with the errno and, for permissions, the paranoid remedy.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "engine/model/status.hpp"
#include "os/perf_events.hpp"
#include "os/perf_probes.hpp"

namespace glint::engine::counting {

enum class GroupKind { none, hardware, software };

struct OpenRequest {
    bool scaled = false;   // --perf-scaled
    bool inherit = false;  // --perf-inherit
    std::string pmu_root = os::kPmuSysfsRoot;  // where the PMU listing is read (tests: a fake)
    std::chrono::microseconds spin{2000};      // calibration spin
    bool user_access = false;  // GroupSpec::user_access: a user read path will be tried
};

struct OpenedGroup {
    os::PerfGroup group;
    GroupKind kind = GroupKind::none;
    bool user_only = false;
    bool llc_dropped = false;
    bool scaled = false;   // --perf-scaled in force
    bool inherit = false;  // --perf-inherit in force
    bool multiplexed = false;  // running/enabled < 0.98 at open (after the fallbacks)
    double open_ratio = 0;     // running/enabled of the (final) calibration spin
    std::vector<os::Event> unsupported;  // hardware members the PMU refused one by one
    std::string hardware_absent;         // why there are no hardware events, when there are none

    // [0] is the tier ("perf"): available, degraded (any non-default state) or unavailable;
    // then one status per non-default state ("perf.user-only", "perf.llc-pair",
    // "perf.hardware-events", "perf.member", "perf.scaled", "perf.multiplexed").
    std::vector<Status> statuses;

    bool usable() const { return kind != GroupKind::none; }
};

// The seven-event hardware group and the four-event software group, leader first.
std::vector<os::Event> hardware_events();
std::vector<os::Event> software_events();

OpenedGroup open_counting_group(const OpenRequest& request);

}  // namespace glint::engine::counting
