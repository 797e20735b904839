// engine/stability/verdict.hpp: when a measured row is unstable, and why. Pure functions.
//
// Reasons, in this order (JSON rows[].unstable; the table: "~" and codes, unstable_legend.hpp):
// cpu-time (CPU/wall below min_cpu_wall, unless the headline came from clean samples),
// disturbed (under half the samples kept the CPU: headline of all, ± widened), split (two
// clusters), spread (MAD above max_spread of the median), migrated (more than one CPU),
// preempted (switches in >= preempted_share of the samples), run-delay / steal (waiting for
// the CPU / stolen by the hypervisor above their share of the wall time, steal less one tick),
// timer-resolution (batched samples shorter than min_timer_steps timer steps).
// Rationale and details: docs/rationale.md, "engine/stability/verdict.hpp".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/row.hpp"

namespace glint::engine {

struct StabilityThresholds {
    double min_cpu_wall = 0.9;
    double max_spread = 0.05;
    double preempted_share = 0.25;
    double min_timer_steps = 1000;
    double max_run_delay_share = 0.05;
    double max_steal_share = 0.05;
};

// The reasons `row` (a measured row with its stability observations) is unstable.
// `timer_step_ns` is the timing clock's observed step.
std::vector<std::string> unstable_reasons(const TimingSummary& timing, const CaseStability& seen,
                                          double timer_step_ns,
                                          const StabilityThresholds& limits = {});

// Every reason code, in order.
const std::vector<std::string>& unstable_reason_codes();
// What a reason means, for the legend and JSON meta ("CPU/wall < 0.9", ...).
std::string describe_reason(std::string_view code, const StabilityThresholds& limits = {});

}  // namespace glint::engine
