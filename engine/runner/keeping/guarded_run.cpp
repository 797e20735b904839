#include "engine/runner/keeping/guarded_run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engine/compare/document.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/report/color.hpp"
#include "engine/report/gbench_json.hpp"
#include "engine/report/json_report.hpp"
#include "engine/report/reporter.hpp"
#include "engine/report/text.hpp"
#include "engine/report/text_formats.hpp"
#include "engine/runner/bench/bench_run.hpp"
#include "engine/runner/bench/html_output.hpp"
#include "engine/runner/bench/run_info.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/runner/isolation/isolated_run.hpp"
#include "engine/runner/keeping/run_guard.hpp"
#include "engine/runner/keeping/run_record.hpp"
#include "engine/runner/keeping/supervision.hpp"
#include "engine/runner/keeping/table_guard.hpp"
#include "engine/stability/stability_meta.hpp"
#include "engine/timing/clock.hpp"
#include "os/process.hpp"
#include "os/terminal.hpp"

namespace glint::engine {
namespace {

// Rows an interrupted --bench-repeat kept with only some of their repetitions.
std::size_t partial_rows(const std::vector<Row>& rows) {
    return static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const Row& r) {
        return r.extra_fields.contains("partialRepetitions");
    }));
}

Json interruption_json(int signal, const RunRecord& record, const std::vector<Row>& rows) {
    Json out = Json::object();
    out["by"] = os::signal_name(signal);
    const Json during = Json::parse(std::string("{") + record.case_in_flight_members() + "}");
    for (const auto& [key, value] : during.as_object()) out[key] = value;
    const std::size_t partial = partial_rows(rows);
    out["finishedRows"] = static_cast<unsigned long>(rows.size() - partial);
    if (partial) out["partialRows"] = static_cast<unsigned long>(partial);
    return out;
}

// Under the table, one line per partial row (they have no table row of their own):
// "partial: NAME [LABELS]: 1 of 3 repetitions (--bench-repeat was interrupted)".
std::vector<std::string> partial_marks(const std::vector<Row>& rows) {
    std::vector<std::string> lines;
    for (const Row& row : rows)
        if (const Json* mark = row.extra_fields.find("partialRepetitions"))
            lines.push_back("partial: " + display_name(row.registration, row.name, row.labels) +
                            ": " + std::to_string(static_cast<long>(mark->at("done").as_number())) +
                            " of " + std::to_string(static_cast<long>(mark->at("of").as_number())) +
                            " repetitions (--bench-repeat was interrupted)" +
                            (row.error ? "; " + *row.error : ""));
    return lines;
}

// "3 finished rows", "0 finished rows and 2 partial rows (--bench-repeat: not every repetition
// ran)".
std::string kept_rows_text(const std::vector<Row>& rows) {
    const std::size_t partial = partial_rows(rows), finished = rows.size() - partial;
    std::string text = std::to_string(finished) + " finished row" + (finished == 1 ? "" : "s");
    if (partial)
        text += " and " + std::to_string(partial) + " partial row" + (partial == 1 ? "" : "s") +
                " (--bench-repeat: not every repetition ran)";
    return text;
}

// A document whose rows share an identity cannot serve as a baseline: say so while it is cheap.
void warn_duplicate_identities(const std::vector<Row>& rows) {
    if (auto twice = duplicate_identity(document_of_rows(rows, "this run")))
        std::fprintf(stderr,
                     "glint: warning: two rows share the identity %s; comparisons refuse a "
                     "document like this: give the cases distinct names or labels\n",
                     sanitize::terminal(*twice).c_str());
}

void note_invalid_utf8(const std::vector<Row>& rows) {
    std::vector<std::string_view> names;
    for (const auto& row : rows) names.push_back(row.name);
    if (const std::string note = sanitize::invalid_utf8_note(names); !note.empty())
        report::print_wrapped(stderr, "glint: note: " + note);
}

// Where an interrupted run's rows are: " are in 'x.json'" (" is in" for one), or why not.
std::string kept_where(const os::OutputTarget* json_target, bool written, bool one_row) {
    if (!json_target) return "";
    if (written) return (one_row ? " is in '" : " are in '") + json_target->given + "'";
    return ", which '" + json_target->given + "' could not take (the error above)";
}

}  // namespace

int run_guarded_bench(const BenchSetup& setup) {
    const RunPlan& plan = setup.plan;
    const os::OutputTarget* json_target = plan.outputs.json ? &*plan.outputs.json : nullptr;
    const os::OutputTarget* html_target = plan.outputs.html ? &*plan.outputs.html : nullptr;
    // An output written to the standard output (--bench-json=-) has it to itself: the table
    // (and the baseline's verdicts) go to stderr then, printed whole, never repainted.
    std::FILE* const table_out = plan.outputs.stdout_taken ? stderr : stdout;
    const bool live = !plan.outputs.stdout_taken && os::stdout_is_terminal();
    const SortSpec sort{plan.table.sort_by, plan.table.sort_descending};
    // --color=auto paints the live table only: a table on stderr, or piped, stays plain.
    const bool color =
        report::paints(plan.table.color, live, std::getenv("NO_COLOR"), std::getenv("TERM"));
    const bool gbench_json = plan.table.format == "gbench-json";  // the table goes to stderr
    auto table = plan.table.format == "box" || gbench_json
                     ? make_table_reporter(table_out, live, sort, color)
                     : make_text_format_reporter(table_out, plan.table.format, sort);
    TableGuard guarded_table(*table, table_out);

    RunRecord record;
    std::string journal_note;
    Json journal_meta = run_meta(plan.knobs, setup.tiers, setup.capabilities);
    if (setup.environment) setup.environment->add_meta(journal_meta);
    const SampleDetail detail =
        plan.outputs.json_all_samples ? SampleDetail::all : SampleDetail::thinned;
    // Watched before the journal's first write: a file-size limit it meets (SIGXFSZ) stops the
    // run at its first checkpoint instead of killing it (the guard keeps watching).
    os::watch_interrupt_signals();
    record.start(json_target, journal_meta, journal_note, detail);
    if (!journal_note.empty()) report::print_wrapped(stderr, "glint: note: " + journal_note);
    supervised_journal(record.journal_path());
    RunGuard guard({plan.cases.case_timeout_s, !plan.cases.isolate}, record, guarded_table);

    BenchRun run(plan.cases, plan.measuring, guarded_table, setup.tiers);
    const RemedyContext done =
        remedy_context(setup.environment ? &setup.environment->facts() : nullptr,
                       plan.measuring.min_time_ms, clock_properties().resolution_ns);
    run.remedies_for(done);
    if (setup.baseline) run.compare_with(setup.baseline);
    run.observe(&guard);
    std::optional<Isolation> isolation;
    if (plan.cases.isolate) {
        isolation.emplace(
            plan.cases, plan.measuring, plan.tiers,
            Isolation::Settings{plan.cases.case_timeout_s, [&] { guarded_table.case_progress(); },
                                [&] { return guard.poll_stop(); }});
        run.host_cases(&*isolation);
    }

    std::vector<Row> rows;
    int interrupted = 0;
    const std::vector<std::string> header = header_lines(plan.measuring, setup.header_notes);
    try {
        rows = run.run(header);
    } catch (const Interrupted& stop) {
        interrupted = stop.signal;
        guarded_table.end_open_group();
        run.show_held_rows();
        rows = run.take_rows();
        if (const auto marks = partial_marks(rows); !marks.empty()) guarded_table.header(marks);
    }
    if (setup.environment) guarded_table.header(setup.environment->end_lines());
    guard.run_over();
    if (!interrupted) interrupted = guard.poll_stop();  // after the last checkpoint

    int status = run.any_failed() || setup.tiers.output_failed() ? 1 : 0;
    std::optional<BaselineComparison> compared;
    if (setup.baseline) {  // the verdicts, as glint-compare prints them (csv: to stderr)
        compared.emplace(*setup.baseline, rows);
        if (!interrupted) {
            const std::string text =
                compared->text(plan.table.format == "md" ? CompareFormat::md : CompareFormat::box);
            std::fputs(("\n" + text).c_str(), plan.table.format == "csv" ? stderr : table_out);
            // The gate: 1 a row slower beyond it, 3 a row it could not judge (or none compared).
            if (const int gate = compared->gate_status(); gate && status == 0) status = gate;
        }
    }
    warn_duplicate_identities(rows);
    note_invalid_utf8(rows);
    if (interrupted) status = 128 + interrupted;
    if (html_target)
        if (auto error = write_run_html(*html_target, rows, run.catalog(), header, setup.baseline,
                                        compared ? &*compared : nullptr, setup.tiers, done)) {
            std::fprintf(stderr, "glint: error: --bench-html: %s\n", error->c_str());
            status = status ? status : 1;
        }
    const auto document_text = [&] {
        Json meta = run_meta(plan.knobs, setup.tiers, setup.capabilities);
        if (compared) meta["baseline"] = compared->meta();
        if (interrupted) meta["interrupted"] = interruption_json(interrupted, record, rows);
        if (!run.complexity().empty()) meta["complexity"] = run.complexity().json();
        if (setup.environment) setup.environment->add_meta(meta);
        meta["stability"] = stability_meta(run.watcher());
        return build_document(meta, run.json_columns(), rows, detail).dump(2) + "\n";
    };
    if (gbench_json) std::fputs(google_benchmark_json(document_text(), {}).c_str(), stdout);
    bool json_written = false;
    if (json_target) {
        const std::string text = document_text();
        if (auto error = os::write_output(*json_target, text)) {
            std::fprintf(
                stderr, "glint: error: --bench-json: %s%s\n", error->c_str(),
                record.journal_path().empty()
                    ? ""
                    : ("; the finished rows are in the journal '" + record.journal_path() + "'")
                          .c_str());
            status = status ? status : 1;
        } else {
            record.finish();
            json_written = true;
        }
    }
    if (interrupted) {
        const std::string during = record.case_in_flight_shown();
        std::fprintf(
            stderr, "glint: %s stopped the run %s: %s%s\n", os::signal_name(interrupted).c_str(),
            (during == "null" ? std::string("between cases") : "during " + during).c_str(),
            kept_rows_text(rows).c_str(),
            kept_where(json_target, json_written, rows.size() == 1 && !partial_rows(rows)).c_str());
    }
    if (const int error = guarded_table.write_error(); error != 0 && !interrupted) {
        std::fprintf(stderr,
                     "glint: error: the table could not be written to the standard %s: %s\n",
                     table_out == stdout ? "output" : "error", std::strerror(error));
        std::clearerr(table_out);  // reported: glint::main's last check reports only a new failure
        status = status ? status : 1;
    }
    return status;
}

}  // namespace glint::engine
