// engine/runner/bench/case_measure.hpp: what measures one case of a bench run: its timing
// pass, then the tiers' passes (TierSet::count), then its client metrics and the baseline's
// cells. What schedules cases (phases, tables, repetitions) is BenchRun (bench_run.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/baseline/baseline.hpp"
#include "engine/model/row.hpp"
#include "engine/runner/bench/repetition.hpp"
#include "engine/stability/case_watch.hpp"
#include "engine/tiers/tier.hpp"
#include "engine/tiers/tier_set.hpp"

namespace glint::engine {

// One case to measure here.
struct Case {
    std::string name;          // the row's name (JSON)
    std::string display_name;  // the table's name cell
    Labels labels;
    Workload work;
    std::uint64_t pinned = 0;
    std::vector<glint::Metric> metrics;  // resolved: no parameter left (row_metrics)
    std::string registration;            // the row's registration (its identity's first part)
    unsigned threads = 1;  // glint::threads: the body runs on this many threads at once
};

class CaseMeasurer {
  public:
    // `tiers` is open; `min_time_ms` is each timing pass's target (--min-time).
    CaseMeasurer(double min_time_ms, const TierSet& tiers)
        : min_time_ns_(min_time_ms * 1e6), tiers_(tiers) {}

    // Every measured row also gets the baseline's cells (--bench-baseline; owned by the caller).
    void compare_with(const Baseline* baseline) { baseline_ = baseline; }
    const Baseline* baseline() const { return baseline_; }
    // The timing pass's CPU, migrations and preemptions (this thread).
    const CaseWatcher& watcher() const { return watcher_; }

    // Measures `c` for the repetition `reps` is in: only the last one counts and merges the
    // earlier ones. `progress` runs between samples and passes, `checkpoint` outside every
    // timed window (it may throw Interrupted). Exceptions from the user's code propagate.
    // threads > 1: the batch runs on a ThreadTeam; a bench_case, iter_batched or instruction-
    // level case throws std::invalid_argument (its error row) before anything is measured.
    Row measure(const Case& c, Repetitions& reps, const std::function<void()>& progress,
                const std::function<void()>& checkpoint);
    // The baseline's cells, for a row measured elsewhere (none without a baseline).
    void add_baseline_cells(Row& row) const;
    // The error row of `c` (its client cells null).
    static Row error_row(const Case& c, const std::string& message);
    // The line under the table saying whose work `row`'s counts cover ("threads: shown: 2 of 2
    // counted, 0 missed", or what escaped them); nullopt for a row that says nothing of threads.
    static std::optional<std::string> coverage_line(const Row& row, const std::string& shown);

  private:
    // measure() for a case whose batch runs here as given (a team's batch, for threads > 1);
    // `one` is the case's own workload (what each thread of a team counts), `cpus` the team's.
    Row measure_on(const Case& c, const Workload& one, Repetitions& reps,
                   const std::function<void()>& progress, const std::function<void()>& checkpoint,
                   const std::vector<unsigned>& cpus);

    double min_time_ns_;
    const TierSet& tiers_;
    const Baseline* baseline_ = nullptr;
    CaseWatcher watcher_;
    bool noted_difference_ =
        false;                    // the note on how instruction-level rows are counted is printed
    bool noted_threads_ = false;  // the note on multi-threaded rows' counters is printed
};

}  // namespace glint::engine
