// engine/counting/messages.hpp: every sentence the perf tier and the capability probe say
// about the counting group: reasons and remedies, built from facts, in one place so tests can
// pin them and the wording stays consistent between the header, JSON meta and --capabilities.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "os/errors.hpp"
#include "os/perf_events.hpp"
#include "os/perf_probes.hpp"
#include "os/words.hpp"

namespace glint::engine::counting {

// The errno facts of os/errors.hpp, worded here with everything else.
using os::describe_errno;
using os::is_permission_error;
using os::is_unsupported_error;

// "kernel.perf_event_paranoid=2" or "kernel.perf_event_paranoid unreadable".
std::string describe_paranoid(std::optional<int> paranoid);
using os::join;         // "a, b, c"
using os::join_events;  // "cycles, instructions, page-faults"

// No hardware events: why (from the kernel's answer and the sysfs PMU listing) and what would
// bring them.
std::string no_hardware_reason(const os::PmuInventory& pmus, const os::OpenFailure& failure,
                               const std::string& pmu_root);
std::string no_hardware_remedy();
// The same cause in a few words, for the run header ("no hardware PMU, as in a VM without a
// virtual PMU"): the facts behind it stay in the reason (--capabilities, JSON meta).
std::string no_hardware_gist(const os::PmuInventory& pmus, const std::string& pmu_root);
// The header's one line for the software fallback: what is counted instead, then the cause.
std::string software_fallback_note(std::string_view gist, const std::vector<os::Event>& events,
                                   std::string_view scope);

// Kernel+user refused, user-only accepted.
std::string user_only_reason(int error, std::optional<int> paranoid);
std::string user_only_remedy();

// Every mode refused for lack of permission.
std::string permission_refused_reason(int error, std::optional<int> paranoid);
std::string permission_remedy();

// Another perf_event_open failure (EMFILE, EINVAL, EBUSY, ENOSYS, ...).
std::string open_failed_reason(const os::OpenFailure& failure);

// One hardware member the PMU does not support, dropped on its own.
std::string member_unsupported_reason(os::Event event, int error);

// The LLC pair dropped because the full group multiplexed at open.
std::string llc_dropped_reason(double open_ratio, std::uint64_t running_ns);
std::string llc_dropped_remedy();

// The group never got PMU time during calibration.
std::string never_scheduled_reason(std::uint64_t enabled_ns);
std::string never_scheduled_remedy();

// The group still multiplexes after every fallback (or under --perf-scaled).
std::string multiplexed_at_open_reason(double open_ratio);

std::string scaled_mode_reason();
std::string read_failed_reason(const std::string& what);  // "a short read", "EBADF (...)"

// Thread coverage of pid 0, with and without --perf-inherit (under it, with the groups a tier
// opens on the threads alive at the open: engine/tiers/preexisting_threads.hpp).
std::string scope_note(bool inherit);

}  // namespace glint::engine::counting
