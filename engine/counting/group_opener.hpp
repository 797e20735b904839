// engine/counting/group_opener.hpp: which counting group this run gets, and why.
//
// In order: the seven-event hardware group (cycles leads), falling back to user-only on
// EACCES/EPERM and dropping each unsupported sibling alone; a calibration handshake that reopens
// without the LLC pair when running/enabled < 0.98 (unless --perf-scaled); the software group
// (task-clock leads) when the leader is unsupported; else unavailable with the errno and the
// remedy. Every fallback is disclosed in the result's reason.
// Rationale and details: docs/rationale.md, "engine/counting/group_opener.hpp".
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
    bool scaled = false;                       // --perf-scaled
    bool inherit = false;                      // --perf-inherit
    std::string pmu_root = os::kPmuSysfsRoot;  // where the PMU listing is read (tests: a fake)
    std::chrono::microseconds spin{2000};      // calibration spin
    bool user_access = false;  // GroupSpec::user_access: a user read path will be tried
};

struct OpenedGroup {
    os::PerfGroup group;
    GroupKind kind = GroupKind::none;
    bool user_only = false;
    bool llc_dropped = false;
    bool scaled = false;                 // --perf-scaled in force
    bool inherit = false;                // --perf-inherit in force
    bool multiplexed = false;            // running/enabled < 0.98 at open (after the fallbacks)
    double open_ratio = 0;               // running/enabled of the (final) calibration spin
    std::vector<os::Event> unsupported;  // hardware members the PMU refused one by one
    std::string hardware_absent;         // why there are no hardware events, when there are none
    std::string hardware_absent_gist;    // the same in a few words (counting/messages.hpp)

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
