#include "engine/runner/bench/bench_run.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <utility>

#include "catalog/selection.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/registry/params.hpp"
#include "engine/runner/bench/grouping.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/stability/unstable_legend.hpp"
#include "engine/threads/thread_team.hpp"
#include "engine/tiers/client_metrics.hpp"

namespace glint::engine {

BenchRun::BenchRun(const CaseRun& cases, const Measuring& measuring, TableReporter& table,
                   const TierSet& tiers)
    : measuring_(measuring),
      filter_(CaseFilter::parse(cases.filter)),
      gate_(table),
      table_(gate_),
      repetitions_(measuring.repeat),
      tiers_(tiers),
      catalog_(tiers.catalog()),
      measurer_(measuring.min_time_ms, tiers) {}

void BenchRun::compare_with(const Baseline* baseline) {
    measurer_.compare_with(baseline);
    if (baseline)
        for (auto& d : baseline_family()) catalog_.push_back(std::move(d));
}

std::vector<Row> BenchRun::run(const std::vector<std::string>& header_lines) {
    pending_.set(header_lines);
    for (const auto& registration : registrations())
        merge_client_family(catalog_, registration.metrics);
    for (std::uint64_t rep = 1; rep <= repetitions_.count(); ++rep) {
        repetitions_.begin(rep);
        gate_.mute(!repetitions_.last());
        run_once();
        if (repetitions_.last()) break;
        repetitions_.keep(rows_);
        rows_.clear();
    }
    print_pending_header();  // provenance registered after the last table began
    table_.header(complexity_.lines());
    std::vector<std::string> trailer = tiers_.trailer();
    for (auto& line : unstable_legend(rows_, {}, done_)) trailer.push_back(std::move(line));
    table_.header(trailer);
    return std::move(rows_);
}

void BenchRun::run_once() {
    deferred_.clear();  // each repetition's bodies register their bench_cases afresh
    held_.clear();
    held_shown_.clear();
    announce_columns();
    {
        SessionScope scope(*this);
        for_each_body_run(filter_, [&](const BodyRun& run) {
            if (host_) {
                body_.registration = &run.registration;
                body_.run = &run;
                host_->run_body(*this, catalog_, run);
            } else {
                run_body(run);
            }
            checkpoint();
        });
    }
    if (phase1_table_open_) end_table(grouping());  // grouped: its notes follow the first group
    phase1_table_open_ = false;
    for (const auto& d : deferred_) merge_client_family(catalog_, d.info.metrics);
    announce_columns();
    if (repetitions_.last()) warn_unmatched_selectors();
    run_phase2();
}

void BenchRun::run_body(const BodyRun& run) {
    const Registration& registration = run.registration;
    const std::size_t deferred_before = deferred_.size();
    body_ = {&registration, &run, deferred_before, 0};
    // Its parameters were checked before the run (registration_problem): this cannot throw.
    Case whole{registration.name,
               display_name(registration.name, registration.name, run.labels),
               run.labels,
               {},
               registration.pinned_iterations,
               resolve_metrics(registration, run.instance, registration.metrics),
               registration.name,
               threads_of(run.instance)};
    started(registration.name, run.labels);
    try {
        registration.body();
    } catch (const ReportedFailure&) {
        return;
    } catch (const Interrupted&) {
        throw;
    } catch (...) {
        record_error(whole, describe_failure(std::current_exception()));
        return;
    }
    const bool whole_body = body_.iter_calls == 0 && deferred_.size() == deferred_before;
    if (whole_body && filter_.selects(registration.name, registration.name, run.labels)) {
        whole.work.batch = registration.whole_body;
        measure(whole);
    }
}

void BenchRun::on_iter(glint::detail::Batch batch, const glint::detail::IterOptions& options) {
    const Registration& r = *body_.registration;
    const std::string name = iter_path(r.name, ++body_.iter_calls);
    if (!filter_.selects(name, r.name, body_.run->labels)) return;
    // A metric naming no parameter of r throws here, out of the body: its error row.
    std::vector<glint::Metric> metrics =
        merged_metrics(resolve_metrics(r, body_.run->instance, r.metrics),
                       resolve_metrics(r, body_.run->instance, options.metrics));
    if (!options.metrics.empty()) {
        client_metrics(metrics);
        if (observer_) observer_->client_metrics(metrics);
    }
    const std::uint64_t pinned = options.pinned.count ? options.pinned.count : r.pinned_iterations;
    Case c{name,
           display_name(r.name, name, body_.run->labels),
           body_.run->labels,
           {},
           pinned,
           std::move(metrics),
           r.name,
           threads_of(body_.run->instance)};
    c.work.batch = batch;
    const std::size_t rows_before = rows_.size();
    measure(c);
    if (rows_.size() > rows_before && rows_.back().is_error()) throw ReportedFailure{};
}

void BenchRun::on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall> body) {
    if (threads_of(body_.run->instance) > 1) throw std::invalid_argument(kBenchCaseOneThread);
    info.labels = with_param_labels(std::move(info.labels), body_.run->instance);
    info.metrics =
        resolve_metrics(*body_.registration, body_.run->instance, std::move(info.metrics));
    const std::size_t index = deferred_.size() - body_.deferred_start;
    deferred_.push_back({body_.registration->name, std::move(info), std::move(body), index,
                         body_.run->index, body_.registration});
}

void BenchRun::run_registration_alone(const BodyRun& body) {
    repetitions_.alone();
    SessionScope scope(*this);
    run_body(body);
}

void BenchRun::hand_over(CaseSink& sink) {
    for (auto& d : deferred_)
        sink.case_deferred({d.registration, d.info, nullptr, d.index, d.instance, nullptr});
    for (auto& line : tiers_.after_table()) sink.after_table(std::move(line));
    if (const Json handed = tiers_.hand_back(); !handed.as_object().empty())
        sink.handed_back(handed);
}

void BenchRun::started(const std::string& name, const Labels& labels) {
    if (observer_) observer_->case_started(name, labels);
}

void BenchRun::checkpoint() {
    if (observer_) observer_->checkpoint();
}

void BenchRun::finished(Row row, const std::string& display) {
    if (row.is_error()) failed_ = true;
    if (repetitions_.last())  // whose work the row's counts cover, under its table
        if (auto line = CaseMeasurer::coverage_line(row, display))
            after_table_.push_back(std::move(*line));
    Row shown = row;
    shown.name = display;
    table_.case_finished(shown);
    if (body_.registration && grouping()) {  // shown in its group's table
        held_.push_back(row);
        held_shown_.push_back(false);
    }
    // The complexity fit: phase 1 rows are named by their path, phase 2 rows by the case.
    // Only the last repetition's rows are the case's (earlier ones are merged into it).
    const Registration* r = body_.registration ? body_.registration : phase2_registration_;
    if (r && repetitions_.last())
        complexity_.add(*r, body_.registration ? row.name : case_path(r->name, row.name), row);
    rows_.push_back(std::move(row));
    // The journal records finished rows: a row is finished in the last repetition.
    if (observer_ && repetitions_.last()) observer_->row_finished(rows_.back());
}

void BenchRun::case_started(const std::string& name, const Labels& labels,
                            const std::string& display) {
    if (!phase1_table_open_ && body_.registration) begin_phase1_table();
    table_.case_started(display);
    started(name, labels);
}

void BenchRun::row_finished(Row row, const std::string& display) {
    if (!phase1_table_open_ && body_.registration) begin_phase1_table();
    if (repetitions_.last()) repetitions_.merge(row);  // a child measured one repetition
    if (!row.is_error() && repetitions_.last()) measurer_.add_baseline_cells(row);
    finished(std::move(row), display);
}

void BenchRun::case_failed(const FailedCase& c, const std::string& message) {
    record_error(Case{c.name,
                      c.display,
                      c.labels,
                      {},
                      0,
                      c.metrics ? *c.metrics : std::vector<glint::Metric>{},
                      c.registration},
                 message);
}

void BenchRun::on_provenance(std::string_view line) {
    // Printed before the next table begins (never inside a live table).
    add_provenance(line);
}

void BenchRun::print_pending_header() {
    if (gate_.muted()) return;  // printed by the last repetition
    if (const std::vector<std::string> lines = pending_.take(); !lines.empty())
        table_.header(lines);
}

void BenchRun::begin_phase1_table() {
    print_pending_header();
    if (phase1_table_open_) return;
    GroupInfo group;
    for (const auto& r : registrations()) {
        if (!filter_.may_select_under(r.name)) continue;
        for (const auto& instance : instances(r)) {
            const Labels labels = sorted_labels(param_labels(instance));
            if (filter_.may_select_labels(labels))
                group.expected_names.push_back(display_name(r.name, r.name, labels));
        }
    }
    group.columns = phase1_table_columns_ = phase1_columns();
    group.progress_only = grouping();
    table_.begin_group(group);
    phase1_table_open_ = true;
}

void BenchRun::measure(const Case& c) {
    if (!phase1_table_open_ && body_.registration) begin_phase1_table();
    checkpoint();
    table_.case_started(c.display_name);
    started(c.name, c.labels);
    Row row;
    try {
        row = measurer_.measure(
            c, repetitions_, [this] { table_.case_progress(); }, [this] { checkpoint(); });
    } catch (const ReportedFailure&) {
        throw;
    } catch (const Interrupted&) {
        throw;
    } catch (...) {
        record_error(c, describe_failure(std::current_exception()));
        return;
    }
    finished(std::move(row), c.display_name);
}

void BenchRun::record_error(const Case& c, const std::string& message) {
    Row row = CaseMeasurer::error_row(c, message);
    if (!phase1_table_open_ && body_.registration) begin_phase1_table();
    finished(std::move(row), c.display_name);
    table_.diagnostic("glint: " + display_name(c.registration, c.name, c.labels) + ": " +
                      message);  // live: after the group's frame
}

void BenchRun::run_deferred_alone(DeferredCase& d) {
    repetitions_.alone();
    const Labels sorted = sorted_labels(d.info.labels);
    measure_deferred(d, sorted, display_name(d.registration, d.info.name, sorted));
}

void BenchRun::measure_deferred(DeferredCase& d, const Labels& sorted, const std::string& display) {
    Case c{d.info.name, display, sorted, {}, d.info.iterations, d.info.metrics, d.registration};
    c.work.per_call = d.body.get();
    started(c.name, c.labels);
    try {
        if (d.info.setup) d.info.setup();
    } catch (const Interrupted&) {
        throw;
    } catch (...) {
        table_.case_started(c.display_name);
        record_error(c, "setup: " + describe_failure(std::current_exception()));
        return;
    }
    measure(c);
    try {
        if (d.info.teardown) d.info.teardown();
    } catch (const Interrupted&) {
        throw;
    } catch (...) {
        failed_ = true;
        table_.diagnostic("glint: " + display_name(c.registration, c.name, c.labels) +
                          ": teardown: " + describe_failure(std::current_exception()));
    }
}

void BenchRun::end_table(bool hold_notes) {
    table_.end_group();
    std::vector<std::string> lines = tiers_.after_table();
    for (auto& line : std::exchange(after_table_, {})) lines.push_back(std::move(line));
    if (hold_notes) after_table_ = std::move(lines);
    else if (!lines.empty()) table_.header(lines);
}

}  // namespace glint::engine
