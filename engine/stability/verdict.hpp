// engine/stability/verdict.hpp: when a measured row is unstable, and why. Pure functions.
//
// Reasons, in this order (JSON rows[].unstable; the table marks the median with "~"):
//   cpu-time          the thread's CPU time over the samples is below min_cpu_wall of the wall
//                     time: it waited (slept, blocked, or lost the CPU to other work or, in a
//                     VM, to other guests).
//   spread            MAD above max_spread of the median (rows whose median is resolved).
//   migrated          the thread ran on more than one CPU during the timing pass (a counted
//                     cpu-migration, or a different CPU at the end than at the start).
//   preempted         involuntary context switches during the timing pass reached
//                     preempted_share of the samples: a switch delays the sample it lands in,
//                     so from that share on the spread, and then the median, can move.
//   timer-resolution  batched samples shorter than min_timer_steps steps of the timer (pinned
//                     iterations too few): the clock's step is then a visible part of a sample.
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
};

// The reasons `row` (a measured row with its stability observations) is unstable.
// `timer_step_ns` is the timing clock's observed step.
std::vector<std::string> unstable_reasons(const TimingSummary& timing, const CaseStability& seen,
                                          double timer_step_ns,
                                          const StabilityThresholds& limits = {});

// Every reason code, in order.
const std::vector<std::string>& unstable_reason_codes();
// What a reason means, for the footer and JSON meta ("CPU/wall < 0.9", ...).
std::string describe_reason(std::string_view code, const StabilityThresholds& limits = {});

// The footer under the tables when some rows are unstable: one line naming the reasons seen
// (with how many rows each), where JSON has them and what helps (--pin and a quieter machine
// for noise, more iterations per sample for timer-resolution); "" when no row is unstable.
std::string unstable_footer(const std::vector<Row>& rows, const StabilityThresholds& limits = {});

}  // namespace glint::engine
