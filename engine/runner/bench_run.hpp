// engine/runner/bench_run.hpp: one --bench run.
//
// Phase 1 runs every selected body in registration order: glint::iter is measured inside the
// body (its callable's state lives on the body's stack), a body that calls neither iter nor
// bench_case is measured whole after it returns, and bench_case calls are deferred. Phase 2
// measures the deferred cases, one streamed table per --group-by group. Each case gets its
// timing pass, then one counting pass per open tier (TierSet), then its client metrics.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/baseline/baseline.hpp"
#include "engine/cli/options.hpp"
#include "engine/model/row.hpp"
#include "engine/registry/registry.hpp"
#include "engine/report/reporter.hpp"
#include "engine/runner/repetition.hpp"
#include "engine/runner/session.hpp"
#include "engine/tiers/tier.hpp"
#include "engine/tiers/tier_set.hpp"

namespace glint::engine {

// A bench_case deferred to phase 2.
struct DeferredCase {
    std::string registration;
    glint::CaseInfo info;
    std::unique_ptr<glint::detail::PerCall> body;
};

class BenchRun final : public Session {
public:
    // `tiers` is open; its catalog and column selection are the run's.
    BenchRun(const Options& options, TableReporter& table, const TierSet& tiers);

    // Runs both phases; returns the rows in measurement order.
    std::vector<Row> run(const std::vector<std::string>& header_lines);

    // The catalog including the client metrics discovered in phase 1.
    const std::vector<catalog::MetricDescriptor>& catalog() const { return catalog_; }
    bool any_failed() const { return failed_; }
    // Every measured row also gets the baseline's cells (--bench-baseline), and the catalog its
    // columns.
    void compare_with(const Baseline* baseline);

    void on_iter(glint::detail::Batch batch, glint::Iterations pinned) override;
    void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall> body) override;
    void on_provenance(std::string_view line) override;

private:
    struct Case {
        std::string name;          // the row's name (JSON)
        std::string display_name;  // the table's name cell
        Labels labels;
        Workload work;
        std::uint64_t pinned = 0;
        const std::vector<glint::Metric>* metrics = nullptr;
        std::string registration;  // the row's registration (its identity's first part)
    };

    void run_once();  // phase 1 then phase 2: one repetition of every selected case
    void run_body(const Registration& registration);
    void measure(const Case& c);
    Row measure_row(const Case& c);
    void record_error(const Case& c, const std::string& message);
    void print_pending_header();
    void end_table();  // ends the table, then prints what the tiers say after it
    void begin_phase1_table();
    void run_phase2();
    // The table's columns: every tier column, plus the client columns the given cases declare.
    using MetricLists = std::vector<const std::vector<glint::Metric>*>;
    std::vector<catalog::MetricDescriptor> visible_columns(const MetricLists& case_metrics) const;
    void warn_unmatched_selectors() const;

    const Options& options_;
    GatedTable gate_;        // the caller's table, muted before the last repetition
    TableReporter& table_;   // gate_
    Repetitions repetitions_;
    const TierSet& tiers_;
    std::vector<catalog::MetricDescriptor> catalog_;
    const Baseline* baseline_ = nullptr;  // --bench-baseline, owned by the caller
    std::vector<std::string> header_lines_;
    bool header_printed_ = false;
    std::size_t provenance_printed_ = 0;
    bool phase1_table_open_ = false;

    const Registration* current_ = nullptr;
    int iter_calls_ = 0;
    std::vector<DeferredCase> deferred_;
    std::vector<Row> rows_;
    bool failed_ = false;
};

// Thrown out of glint::iter after its failure was recorded as an error row, to end the body.
struct ReportedFailure {};

}  // namespace glint::engine
