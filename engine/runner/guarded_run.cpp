#include "engine/runner/guarded_run.hpp"

#include <cstdio>
#include <cstring>

#include "engine/compare/document.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/report/json_report.hpp"
#include "engine/report/reporter.hpp"
#include "engine/report/text_formats.hpp"
#include "engine/runner/bench_run.hpp"
#include "engine/runner/html_output.hpp"
#include "engine/runner/isolation.hpp"
#include "engine/runner/run_guard.hpp"
#include "engine/runner/run_info.hpp"
#include "engine/runner/run_record.hpp"
#include "engine/runner/table_guard.hpp"
#include "engine/stability/stability_meta.hpp"
#include "os/process.hpp"
#include "os/terminal.hpp"

namespace glint::engine {
namespace {

Json interruption_json(int signal, const RunRecord& record) {
    Json out = Json::object();
    out["by"] = os::signal_name(signal);
    const Json during = Json::parse(std::string("{") + record.case_in_flight_members() + "}");
    for (const auto& [key, value] : during.as_object()) out[key] = value;
    out["finishedRows"] = static_cast<unsigned long>(record.finished_rows());
    return out;
}

// A document whose rows share an identity cannot serve as a baseline: say so while it is cheap.
void warn_duplicate_identities(const std::vector<Row>& rows) {
    if (auto twice = duplicate_identity(document_of_rows(rows, "this run")))
        std::fprintf(stderr, "glint: warning: two rows share the identity %s; comparisons refuse a "
                             "document like this: give the cases distinct names or labels\n", sanitize::terminal(*twice).c_str());
}

void note_invalid_utf8(const std::vector<Row>& rows) {
    std::vector<std::string_view> names;
    for (const auto& row : rows) names.push_back(row.name);
    if (const std::string note = sanitize::invalid_utf8_note(names); !note.empty())
        std::fprintf(stderr, "glint: note: %s\n", note.c_str());
}

}  // namespace

int run_guarded_bench(const BenchSetup& setup) {
    const Options& options = setup.options;
    const bool live = os::stdout_is_terminal();
    const SortSpec sort{options.sort_by, options.sort_descending};
    auto table = options.format == "box" ? make_table_reporter(stdout, live, sort)
                                         : make_text_format_reporter(stdout, options.format, sort);
    TableGuard guarded_table(*table, stdout);

    RunRecord record;
    std::string journal_note;
    Json journal_meta = run_meta(options, setup.tiers, setup.capabilities);
    if (setup.environment) setup.environment->add_meta(journal_meta);
    record.start(setup.json_target, journal_meta, journal_note);
    if (!journal_note.empty()) std::fprintf(stderr, "glint: note: %s\n", journal_note.c_str());
    RunGuard guard({options.case_timeout_s, !options.isolate}, record, guarded_table);

    BenchRun run(options, guarded_table, setup.tiers);
    if (setup.baseline) run.compare_with(setup.baseline);
    run.observe(&guard);
    std::optional<Isolation> isolation;
    if (options.isolate) {
        isolation.emplace(options, setup.request,
                          Isolation::Settings{options.case_timeout_s, [&] { guarded_table.case_progress(); },
                                              [&] { return guard.poll_stop(); }});
        run.host_cases(&*isolation);
    }

    std::vector<Row> rows;
    int interrupted = 0;
    const std::vector<std::string> header = header_lines(options, setup.header_notes);
    try {
        rows = run.run(header);
    } catch (const Interrupted& stop) {
        interrupted = stop.signal;
        guarded_table.end_open_group();
        rows = run.take_rows();
    }
    if (setup.environment) guarded_table.header(setup.environment->end_lines());
    guard.run_over();
    if (!interrupted) interrupted = guard.poll_stop();  // after the last checkpoint

    int status = run.any_failed() ? 1 : 0;
    std::optional<BaselineComparison> compared;
    if (setup.baseline) {  // the verdicts, as glint-compare prints them (csv: to stderr)
        compared.emplace(*setup.baseline, rows);
        if (!interrupted) {
            const std::string text = compared->text(options.format == "md" ? CompareFormat::md : CompareFormat::box);
            std::fputs(("\n" + text).c_str(), options.format == "csv" ? stderr : stdout);
            if (compared->gate_failed()) status = 1;
        }
    }
    warn_duplicate_identities(rows);
    note_invalid_utf8(rows);
    if (interrupted) status = 128 + interrupted;
    if (setup.html_target)
        if (auto error = write_run_html(*setup.html_target, rows, run.catalog(), header, setup.baseline,
                                        compared ? &*compared : nullptr)) {
            std::fprintf(stderr, "glint: error: --bench-html: %s\n", error->c_str());
            status = status ? status : 1;
        }
    if (setup.json_target) {
        Json meta = run_meta(options, setup.tiers, setup.capabilities);
        if (compared) meta["baseline"] = compared->meta();
        if (interrupted) meta["interrupted"] = interruption_json(interrupted, record);
        if (!run.complexity().empty()) meta["complexity"] = run.complexity().json();
        if (setup.environment) setup.environment->add_meta(meta);
        meta["stability"] = stability_meta(run.watcher());
        const std::string text = build_document(meta, run.json_columns(), rows).dump(2) + "\n";
        if (auto error = os::write_output(*setup.json_target, text)) {
            std::fprintf(stderr, "glint: error: --bench-json: %s%s\n", error->c_str(),
                         record.journal_path().empty()
                             ? ""
                             : ("; the finished rows are in the journal '" + record.journal_path() + "'").c_str());
            status = status ? status : 1;
        } else {
            record.finish();
        }
    }
    if (interrupted) {
        const std::string during = record.case_in_flight_shown();
        std::fprintf(stderr, "glint: %s stopped the run %s: %zu finished row%s%s\n",
                     os::signal_name(interrupted).c_str(),
                     (during == "null" ? std::string("between cases") : "during " + during).c_str(), rows.size(),
                     rows.size() == 1 ? "" : "s",
                     setup.json_target ? (" are in '" + setup.json_target->given + "'").c_str() : "");
    }
    if (const int error = guarded_table.write_error(); error != 0 && !interrupted) {
        std::fprintf(stderr, "glint: error: the table could not be written to the standard output: %s\n",
                     std::strerror(error));
        std::clearerr(stdout);  // reported: glint::main's last check reports only a new failure
        status = status ? status : 1;
    }
    return status;
}

}  // namespace glint::engine
