// engine/tiers/perf/pass_math.hpp: the arithmetic of a counting pass, as pure functions.
//
// Sizing a pass from the timing pass, differencing group reads against a per-pass baseline,
// accumulating brackets, deciding whether a pass was multiplexed and scaling it, subtracting
// the bracket's own cost and dividing per iteration. No system calls; tested on every host.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/cli/options.hpp"
#include "engine/tiers/tier.hpp"
#include "os/perf_events.hpp"

namespace glint::engine::perf {

inline constexpr std::uint64_t kMaxCountIterations = 100'000;  // automatic pass size cap
inline constexpr double kTargetBracketNs = 1e6;                 // one bracket spans ~1 ms
inline constexpr double kExactRatio = 0.98;            // open: below this the group multiplexes
inline constexpr std::uint64_t kMinScaledRunningNs = 1'000'000;  // less PMU time: noise

// The counting pass for a case whose timing pass measured `median_ns` per iteration with
// `timing_iterations` iterations per sample (per-call cases: the number of timed calls).
//  iterations = --perf-iters if given (honoured as is), else min(timing_iterations, 100000);
//  batch      = --perf-batch if given, else the iterations that fit ~1 ms (median_ns unknown or
//               <= 0: all of them), clamped to [1, iterations]; per-call workloads: always 1.
PassPlan plan_pass(double median_ns, std::uint64_t timing_iterations, const Options& options,
                   bool per_call = false);

// What happened to the group between two reads: count deltas and time deltas.
struct GroupDelta {
    std::array<std::uint64_t, os::kMaxGroupEvents> counts{};
    std::size_t size = 0;
    std::uint64_t enabled = 0;  // ns the group was enabled
    std::uint64_t running = 0;  // ns it was on the PMU
    bool ok = false;            // false: a read failed, was short, or went backwards
};

// after - before, member by member. Not ok when either reading is not ok, the sizes differ,
// or any field went backwards (a reset between them: the caller broke the baseline).
GroupDelta delta_between(const os::GroupReading& before, const os::GroupReading& after);

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
    std::array<double, os::kMaxGroupEvents> per_bracket{};
    std::size_t size = 0;
    std::size_t samples = 0;  // empty brackets it was taken from
    bool measured = false;    // false: nothing subtracted (calibration failed)
};
// The per-member median of empty-bracket deltas, each scaled by its own enabled/running (in the
// units of a scaled pass); brackets that never got PMU time are skipped. Not measured when any
// delta is not ok or none was scheduled.
BracketCost median_cost(const std::vector<GroupDelta>& empty_brackets);

// Per-iteration figures of a pass.
struct PerIteration {
    std::array<double, os::kMaxGroupEvents> values{};  // nan when not measured
    std::size_t size = 0;
    bool estimated = false;
};
// (count * scaling - brackets * cost) / iterations for each member, clamped at zero (the cost
// is a median: a body cheaper than the apparatus noise reads 0, not a negative count);
// unrounded. Every value is nan when the pass failed, was never scheduled, or iterations == 0.
PerIteration per_iteration(const PassTotals& totals, std::uint64_t iterations,
                           const BracketCost& cost);

// numerator / denominator; nan when either is nan or the denominator is 0.
double ratio_of(double numerator, double denominator);

}  // namespace glint::engine::perf
