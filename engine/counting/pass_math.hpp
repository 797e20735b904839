// engine/counting/pass_math.hpp: the arithmetic of a counting pass, as pure functions.
//
// Differencing group reads against a per-pass baseline, accumulating brackets, deciding
// whether a pass was multiplexed and scaling it, subtracting the bracket's own cost and
// dividing per iteration. No system calls; tested on every host. (Sizing a pass — iterations
// and batch — is plan_pass in engine/tiers/pass_plan.hpp.)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "os/perf_events.hpp"
#include "os/read_path.hpp"

namespace glint::engine::counting {

inline constexpr double kExactRatio = 0.98;  // open: below this the group multiplexes
inline constexpr std::uint64_t kMinScaledRunningNs = 1'000'000;  // less PMU time: noise

// What happened to the group between two reads (os/read_path.hpp).
using os::delta_between;
using os::GroupDelta;

// The sum of a pass's brackets. One failed bracket spoils the pass (ok stays false).
struct PassTotals {
    std::array<std::uint64_t, os::kMaxGroupEvents> counts{};
    std::size_t size = 0;
    std::uint64_t enabled = 0;
    std::uint64_t running = 0;
    std::uint64_t brackets = 0;
    bool ok = true;

    void add(const GroupDelta& delta);
};

// running / enabled; nan when enabled == 0 (never enabled: nothing to say).
double running_ratio(std::uint64_t enabled, std::uint64_t running);

// How a pass's counts turn into figures.
struct Scaling {
    double factor = 1.0;     // multiply counts by this (enabled / running)
    bool measured = false;   // false: render "—" (never scheduled, or too little PMU time)
    bool estimated = false;  // the pass was multiplexed: the figures are estimates ("≈")
};
// enabled == 0 or running == 0: not measured. running == enabled: exact. running < enabled:
// rotated; under kMinScaledRunningNs of PMU time not measured, else scaled and estimated.
Scaling pass_scaling(std::uint64_t enabled, std::uint64_t running);

// The apparatus cost of one bracket, per member, in the member's unit.
struct BracketCost {
    std::array<double, os::kMaxGroupEvents> per_bracket{};  // the estimate
    // The standard error of that estimate, per bracket (0 for a counter that never varied).
    std::array<double, os::kMaxGroupEvents> uncertainty{};
    std::size_t size = 0;
    std::size_t samples = 0;  // empty brackets it was taken from
    bool measured = false;    // false: nothing to subtract (no empty bracket could be read)
};
// Both take empty-bracket deltas, each scaled by its own enabled/running (so the cost is in the
// units of a scaled pass); brackets that never got PMU time are skipped. Not measured when any
// delta is not ok or none was scheduled.
// The per-member median (robust: what one bracket typically costs; shown in the header), with
// the median's standard error 1.2533 x 1.4826 x MAD / sqrt(samples).
BracketCost median_cost(const std::vector<GroupDelta>& empty_brackets);
// The per-member mean (unbiased for a sum of brackets: what a pass subtracts), with the mean's
// standard error (sample standard deviation / sqrt(samples)).
BracketCost mean_cost(const std::vector<GroupDelta>& empty_brackets);

// Per-iteration figures of a pass.
struct PerIteration {
    std::array<double, os::kMaxGroupEvents> values{};  // nan when not measured
    std::size_t size = 0;
    bool estimated = false;
};
// (count * scaling - brackets * cost) / iterations for each member, unrounded. A value below
// three times the subtraction's own uncertainty (brackets * cost.uncertainty / iterations) is
// nan: the body is lost in the bracket's noise, and a 0 there would be invented. Otherwise a
// negative residue clamps at zero. Every value is nan when
// the pass failed, was never scheduled, or iterations == 0.
PerIteration per_iteration(const PassTotals& totals, std::uint64_t iterations,
                           const BracketCost& cost);

// numerator / denominator; nan when either is nan or the denominator is 0.
double ratio_of(double numerator, double denominator);

}  // namespace glint::engine::counting
