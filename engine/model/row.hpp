// engine/model/row.hpp: one measured row, as the runner hands it to the reporters.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/model/json.hpp"
#include "engine/model/stability.hpp"

namespace glint::engine {

using Labels = std::vector<std::pair<std::string, std::string>>;  // sorted by key

// Labels sorted by key (the order JSON and every reporter use); stable for equal keys.
Labels sorted_labels(std::vector<std::pair<std::string, std::string>> labels);

// A row's identity as a map key: its registration, its name and its labels (sorted by key).
std::string identity_key(const std::string& registration, const std::string& name,
                         const Labels& sorted);

// A row's one display name, printed by every view (tables, --list, JSON displayName, glint-compare,
// HTML, --profile) and matched by --filter: "registration/name [key=value,key=value]", labels
// sorted by key; "name [...]" for a registration's own row (name is the registration or
// "registration#k"; or no registration: documents that predate it); no brackets without labels.
std::string display_name(std::string_view registration, std::string_view name,
                         const Labels& labels);
// Just the labels part: " [key=value,key=value]" (sorted by key), "" when there are none.
std::string display_labels(const Labels& labels);
// Whether `name` is `registration`'s own row (its whole body or an iter: "registration#k").
bool is_own_row(std::string_view registration, std::string_view name);

// The timing pass, in nanoseconds per iteration.
struct TimingSummary {
    std::uint64_t samples = 0;
    std::uint64_t iterations_per_sample = 1;  // 1 for a per-call case
    bool per_call = false;                    // one timed call per sample
    double median_ns = 0;
    double mad_ns = 0;  // median absolute deviation
    double min_ns = 0;
    double max_ns = 0;
    std::vector<double> sample_ns;  // every sample, ns per iteration, in measurement order
    // --bench-repeat: each repetition's median, in order (one entry for a single run). With
    // several, median_ns is their median and sample_ns holds every repetition's samples.
    std::vector<double> repetition_median_ns;
    // Per-call only: the clock bracket subtracted from every sample (0 for batched cases). A
    // call cheaper than this is dominated by the apparatus: its median is not resolved.
    double resolution_ns = 0;
    // Whether a time of this case (a sample, the median) is above that resolution.
    bool resolved(double ns) const { return !per_call || ns >= resolution_ns; }
    bool median_resolved() const { return resolved(median_ns); }

    // The measuring thread's CPU time (CLOCK_THREAD_CPUTIME_ID) beside the wall time. Batched:
    // read between consecutive samples; iter_batched: the windows' wall less the time lost
    // between reads before each window's setup and after the window;
    // per-call: around each call. sample_cpu_ns[i] is sample i's CPU time per iteration,
    // clamped to its wall time (a sample's CPU span never exceeds its wall span).
    // cpu_ns / wall_ns cover the measured samples (per-call: the whole loop, `after` included),
    // the wall clock read just outside the first and last CPU reads, so that the CPU span lies
    // inside the wall span: one thread's ratio is at most 1. NaN when the thread clock is
    // unavailable.
    std::vector<double> sample_cpu_ns;
    double cpu_ns = NAN;
    double wall_ns = NAN;
    double cpu_wall_ratio() const { return wall_ns > 0 ? cpu_ns / wall_ns : NAN; }

    // The headline (engine/stats/headline.hpp, docs/load.md): how median_ns was chosen
    // ("median", "clean-median", "all-median"), the samples that kept / lost the CPU (unset:
    // no per-sample CPU time), the ± printed (NaN: mad_ns), whether the headline's samples
    // split in two clusters, and whether they were retaken at short windows under contention.
    std::string estimator = "median";
    std::optional<std::uint64_t> clean_samples, disturbed_samples;
    // Batched: core-speed probes around each sample (timing/core_probe.hpp) marked these samples
    // as run on a slowed core (disturbed, though their CPU time was whole); the count is unset
    // where samples were not probed.
    std::vector<bool> slow_core;
    std::optional<std::uint64_t> slow_core_samples;
    // The core-speed probes' median (batched: those above; per call: between calls), ns per
    // dependent add: the speed the core ran at through the pass, which on a vCPU can differ
    // from run to run (docs/comparing.md); NaN: not probed. With --bench-repeat, the
    // repetitions' median.
    double core_step_ns = NAN;
    // A difference with a unit pair (Batch::unit_run): each sample's unit instruction, ns per
    // unit, timed right after it; and the median over the headline's samples of each sample's
    // time / its unit's (NaN: no unit). With --bench-repeat, the repetitions' median.
    std::vector<double> unit_sample_ns;
    double per_unit = NAN;
    double spread_ns = NAN;
    bool split = false;
    bool retaken = false;
    double printed_spread_ns() const { return std::isfinite(spread_ns) ? spread_ns : mad_ns; }
};

struct Row {
    std::string registration;  // the GLINT_BENCH that measured it (part of the row's identity)
    std::string name;
    Labels labels;
    std::optional<TimingSummary> timing;  // absent on an error row
    std::vector<catalog::MetricCell> cells;
    std::optional<std::uint64_t> count_iterations;  // set when a counting pass ran
    std::optional<std::string> error;               // set on an error row
    std::optional<CaseStability> stability;         // set on a measured row
    Json extra_fields = Json::object();  // fields tiers add to the JSON row ("profile", ...)

    bool is_error() const { return error.has_value(); }
    // Names of the cells that are multiplex-scaled estimates (JSON estimatedMetrics).
    std::vector<std::string> estimated_metrics() const;
    const catalog::MetricCell* cell(std::string_view metric) const;
};

}  // namespace glint::engine
