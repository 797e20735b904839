// engine/stats/headline.hpp: the headline of a timing pass, robust to competing load. Pure.
//
// A sample is clean when its wall time exceeds its CPU time by at most the rule's tolerance
// (the thread clock's step and read cost, plus `share` of the sample); the rest lost the CPU
// (disturbed), as does a sample the core-speed probes found on a slowed core. With at least
// half the samples clean and at least min_clean of them, the headline is the clean samples'
// median (grouped_median: they are read in the clock's steps) and the ± their dispersion,
// widened by the drift of time-ordered blocks; otherwise the median of all samples with the ±
// widened to their real spread. A split sample (two clusters) widens the ± over both. Without
// per-sample CPU times, the plain median. Rationale and details: docs/rationale.md,
// "engine/stats/headline.hpp", and docs/load.md.
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace glint::engine {

struct HeadlineRule {
    double tolerance_ns = 0;  // per sample, in the samples' unit (ns per iteration)
    double share = 0.01;      // of the sample's wall time, also tolerated
    std::size_t min_clean = 8;
    std::size_t blocks = 4;  // time-ordered blocks of the clean samples for the drift term
    double step_ns = 0;      // the clock's step, in the samples' unit: the ± is never finer
                             // than its quantum, and a gap of two quanta is no split
};

inline constexpr const char* kEstimatorMedian = "median";             // no per-sample CPU time
inline constexpr const char* kEstimatorCleanMedian = "clean-median";  // clean samples' median
inline constexpr const char* kEstimatorAllMedian = "all-median";      // too few clean samples

struct Headline {
    std::string estimator = kEstimatorMedian;
    double median = 0;
    double mad = 0;                               // of the samples the median came from
    double spread = 0;                            // the ± printed beside the median
    std::optional<std::size_t> clean, disturbed;  // unset without per-sample CPU times
    std::optional<std::size_t>
        slow_core;       // of the disturbed, those on a slowed core; unset unprobed
    bool split = false;  // the headline's samples fall in two separated clusters
    bool too_few_clean = false;
    double per_unit = NAN;  // with units: the median of wall / unit over the median's samples
};

// Whether a sample of `wall` (and `cpu`, NaN when not read) lost no CPU time beyond the rule.
bool is_clean(double wall, double cpu, const HeadlineRule& rule);

// The number of clean samples (0 when no CPU time was read).
std::size_t count_clean(std::span<const double> wall, std::span<const double> cpu,
                        const HeadlineRule& rule);

// The headline of samples `wall` (time order) with their CPU times `cpu` (same length, or empty).
// `slow_core` (same length, or empty): samples that ran on a slowed core (timing/core_probe.hpp),
// disturbed whatever their CPU time. `unit` (same length, or empty): each sample's unit
// instruction timed beside it, whose ratio to the sample the headline's samples median.
Headline estimate_headline(std::span<const double> wall, std::span<const double> cpu,
                           const HeadlineRule& rule = {}, const std::vector<bool>& slow_core = {},
                           std::span<const double> unit = {});

// Half-gap test: whether sorted values fall in two clusters (each >= 10% of them, >= 2 values)
// separated by a gap above 5% of their median, 4x the wider cluster's MAD and two quanta of
// the clock (step_ns, or the smallest gap between the values when wider).
bool is_split(std::vector<double> values, double step_ns = 0);

// The median of sorted samples read in whole steps of `quantum`: a value stands for the step
// around it, and the readings tied at the median are spread evenly over that step (the median
// of grouped data). It moves with the share of readings one step up, where the plain median
// jumps a whole step; with no tie at the median (or no quantum) it is the plain median.
double grouped_median(std::span<const double> sorted, double quantum);

// The clock's quantum in sorted values: step_ns, or the smallest gap between two of them when
// wider (a clock whose reads come in steps coarser than the step it reported).
double clock_quantum(std::span<const double> sorted, double step_ns);

// The drift term: the range of the medians of `blocks` consecutive blocks (0 when < 2 blocks
// of at least 4 values fit).
double block_drift(std::span<const double> ordered, std::size_t blocks);

}  // namespace glint::engine
