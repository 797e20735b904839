// engine/runner/bench/bench_run.hpp: one --bench run.
//
// Phase 1 runs every selected body in registration order: glint::iter is measured inside the
// body (its callable's state lives on the body's stack), a body that calls neither iter nor
// bench_case is measured whole after it returns, and bench_case calls are deferred. Phase 2
// measures the deferred cases, one streamed table per registration or, with --group-by, per
// label group (phase 1's rows then wait behind a progress line for their group's table). Each
// case gets its timing pass, one counting pass per open tier (TierSet), then its client metrics
// (CaseMeasurer, case_measure.hpp). BenchRun schedules: phases, tables, repetitions, the
// session callbacks; cases measured in another process report into it as a CaseSink.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/baseline/baseline.hpp"
#include "engine/cli/run_plan.hpp"
#include "engine/model/row.hpp"
#include "engine/registry/registry.hpp"
#include "engine/report/reporter.hpp"
#include "engine/runner/bench/case_measure.hpp"
#include "engine/runner/bench/case_sink.hpp"
#include "engine/runner/bench/complexity_report.hpp"
#include "engine/runner/bench/pending_header.hpp"
#include "engine/runner/bench/repetition.hpp"
#include "engine/runner/bench/run_observer.hpp"
#include "engine/runner/body_runs.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/runner/session.hpp"
#include "engine/stability/remedies.hpp"
#include "engine/tiers/tier.hpp"
#include "engine/tiers/tier_set.hpp"

namespace glint::engine {

// Where cases run when not in this process (--isolate: engine/runner/isolation/isolated_run.hpp).
// The host reports what it measured into the run's sink; `columns` is the run's catalog so far
// (what rows are read against).
class CaseHost {
  public:
    using Columns = std::vector<catalog::MetricDescriptor>;
    virtual ~CaseHost() = default;
    // Phase 1 of one body run: its rows, and the bench_cases its body registers.
    virtual void run_body(CaseSink& run, const Columns& columns, const BodyRun& body) = 0;
    // One bench_case (phase 2).
    virtual void run_case(CaseSink& run, const Columns& columns, const DeferredCase& d,
                          const std::string& display) = 0;
};

class BenchRun final : public Session, public CaseSink {
  public:
    // `tiers` is open; its catalog and column selection are the run's.
    BenchRun(const CaseRun& cases, const Measuring& measuring, TableReporter& table,
             const TierSet& tiers);

    // Runs both phases; returns the rows in measurement order.
    std::vector<Row> run(const std::vector<std::string>& header_lines);

    // The catalog including the client metrics discovered in phase 1.
    const std::vector<catalog::MetricDescriptor>& catalog() const { return catalog_; }
    bool any_failed() const { return failed_; }
    // The complexity fits of the run's glint::complexity() registrations (JSON meta.complexity).
    const ComplexityCollector& complexity() const { return complexity_; }
    const CaseWatcher& watcher() const { return measurer_.watcher(); }
    // Every measured row also gets the baseline's cells (--bench-baseline), and the catalog its
    // columns.
    void compare_with(const Baseline* baseline);
    void observe(RunObserver* observer) { observer_ = observer; }
    // What the run already did about noise: the footer's remedies leave it out.
    void remedies_for(const RemedyContext& done) { done_ = done; }
    // The rows --group-by held that no table showed yet, in one table titled `title`: after an
    // interruption (the open table ended) for the groups that did not come.
    void show_held_rows(const std::string& title = "measured before the stop");
    void host_cases(CaseHost* host) { host_ = host; }
    // The JSON columns: the available metrics, and the unavailable ones --metrics names (null
    // in every row, with the reason in columns, as the table shows them —).
    std::vector<catalog::MetricDescriptor> json_columns() const;
    // The rows so far (after run() threw Interrupted).
    // After an interruption: the finished rows, then (--bench-repeat) the partial ones
    // (Repetitions::partial_rows).
    std::vector<Row> take_rows() {
        std::vector<Row> rows = repetitions_.last() ? std::move(rows_) : std::vector<Row>{};
        for (Row& row : repetitions_.partial_rows(rows_, rows)) rows.push_back(std::move(row));
        return rows;
    }

    // Isolation, child side: phase 1 of one registration; then one of its bench_cases. Its
    // rows go to the observer; hand_over() then reports the bench_cases the body registered,
    // the tiers' lines after the table and their hand-back into `sink`.
    void run_registration_alone(const BodyRun& body);
    void run_deferred_alone(DeferredCase& d);
    void hand_over(CaseSink& sink);
    // Isolation, parent side (CaseSink): a case measured by the CaseHost (its table row, JSON
    // row); a child's after-table lines print when the table in progress ends.
    void case_started(const std::string& name, const Labels& labels,
                      const std::string& display) override;
    void row_finished(Row row, const std::string& display) override;
    void case_failed(const FailedCase& c, const std::string& message) override;
    void case_deferred(DeferredCase d) override { deferred_.push_back(std::move(d)); }
    // An iter's row metrics: new columns join the catalog, the JSON columns and (phase 1) the
    // open table.
    void client_metrics(const std::vector<glint::Metric>& metrics) override;
    void after_table(std::string line) override { after_table_.push_back(std::move(line)); }
    void handed_back(const Json& handed) override { tiers_.take_from_child(handed); }

    void on_iter(glint::detail::Batch batch, const glint::detail::IterOptions& options) override;
    void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall> body) override;
    void on_provenance(std::string_view line) override;

  private:
    void run_once();  // phase 1 then phase 2: one repetition of every selected case
    void run_body(const BodyRun& run);
    void measure_deferred(DeferredCase& d, const Labels& sorted, const std::string& display);
    void started(const std::string& name, const Labels& labels);
    void finished(Row row, const std::string& display);
    void checkpoint();
    void announce_columns();
    void measure(const Case& c);
    void record_error(const Case& c, const std::string& message);
    void print_pending_header();
    // Ends the table, then prints what the tiers say after it (hold_notes: under the next table).
    void end_table(bool hold_notes = false);
    bool grouping() const { return measuring_.group_by_all || !measuring_.group_by.empty(); }
    // The --group-by keys over the members' labels (=all: every key); warns of a key none has.
    std::vector<std::string> group_keys(const std::vector<const Labels*>& labels) const;
    void begin_phase1_table();
    std::vector<catalog::MetricDescriptor> phase1_columns() const;
    void run_phase2();  // bench_phase2.cpp, with the grouping below
    // The table's columns: every tier column, plus the client columns the given cases declare.
    using MetricLists = std::vector<const std::vector<glint::Metric>*>;
    // ...and those the given measured rows hold (phase 1's, whose iters may have declared more).
    std::vector<catalog::MetricDescriptor> visible_columns(
        const MetricLists& case_metrics, const std::vector<const Row*>& rows = {}) const;
    void warn_unmatched_selectors() const;

    const Measuring& measuring_;
    CaseFilter filter_;
    GatedTable gate_;       // the caller's table, muted before the last repetition
    TableReporter& table_;  // gate_
    Repetitions repetitions_;
    const TierSet& tiers_;
    std::vector<catalog::MetricDescriptor> catalog_;
    CaseMeasurer measurer_;
    RunObserver* observer_ = nullptr;
    CaseHost* host_ = nullptr;
    PendingHeader pending_;  // printed before the next table begins
    bool phase1_table_open_ = false;

    // Phase 1: the body run in progress (registration null in phase 2).
    struct BodyInProgress {
        const Registration* registration = nullptr;
        const BodyRun* run = nullptr;
        std::size_t deferred_start = 0;  // deferred_'s size when it began
        int iter_calls = 0;
    } body_;
    const Registration* phase2_registration_ = nullptr;  // the phase 2 case's, for its fit
    ComplexityCollector complexity_;
    std::vector<DeferredCase> deferred_;
    std::vector<glint::Metric> iter_metrics_;  // one per column the run's iter rows declared
    std::vector<catalog::MetricDescriptor> phase1_table_columns_;  // the open phase 1 table's
    RemedyContext done_;
    std::vector<Row> held_;         // --group-by: phase 1's rows, shown in their groups' tables
    std::vector<bool> held_shown_;  // ...and whether each was
    std::vector<std::string> after_table_;  // lines children sent (after_table)
    std::vector<Row> rows_;
    bool failed_ = false;
};

// Thrown out of glint::iter after its failure was recorded as an error row, to end the body.
struct ReportedFailure {};

}  // namespace glint::engine
