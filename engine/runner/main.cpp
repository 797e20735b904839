// glint::main: parse, validate, open tiers, run, report. Exit status: 0 all passed, 1 a case
// failed, 2 bad usage (reported before anything is measured).
#include <glint/main.hpp>

#include <algorithm>
#include <cstdio>
#include <span>

#include "engine/capabilities/capabilities.hpp"
#include "engine/baseline/baseline.hpp"
#include "engine/cli/options.hpp"
#include "engine/report/json_report.hpp"
#include "engine/report/reporter.hpp"
#include "engine/report/text_formats.hpp"
#include "engine/runner/bench_run.hpp"
#include "engine/runner/html_output.hpp"
#include "engine/runner/listing.hpp"
#include "engine/runner/plain_run.hpp"
#include "engine/runner/run_info.hpp"
#include "engine/tiers/events/selectors.hpp"
#include "engine/tiers/registry.hpp"
#include "engine/tiers/tier_set.hpp"
#include "os/terminal.hpp"
#include "engine/tiers/syscalls/syscall_names.hpp"

namespace glint {
namespace {

using namespace engine;

int usage_error(const std::string& message) {
    std::fprintf(stderr, "glint: error: %s\n", message.c_str());
    return 2;
}

// A document whose rows share an identity cannot serve as a baseline: say so while it is cheap.
void warn_duplicate_identities(const std::vector<Row>& rows) {
    if (auto twice = duplicate_identity(document_of_rows(rows, "this run")))
        std::fprintf(stderr, "glint: warning: two rows share the identity %s; comparisons refuse a "
                             "document like this: give the cases distinct names or labels\n", twice->c_str());
}

}  // namespace

int main(int argc, char** argv) {
    Options options;
    try {
        options = parse_options(std::span<const char* const>(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0)));
    } catch (const UsageError& e) {
        return usage_error(e.what());
    }
    if (options.help) {
        std::fputs(usage_text(), stdout);
        return 0;
    }
    if (options.json_path) {
        if (auto problem = check_writable(*options.json_path))
            return usage_error("--bench-json: " + *problem);
    }
    if (options.html_path) {
        if (auto problem = check_writable(*options.html_path))
            return usage_error("--bench-html: " + *problem);
    }
    if (options.fail_if_slower && !options.baseline_path)
        return usage_error("--fail-if-slower: gates a comparison; add --bench-baseline=FILE");
    if (!options.profile.folded_path.empty()) {
        if (auto problem = check_writable(options.profile.folded_path))
            return usage_error("--profile-folded: " + *problem);
    }
    std::optional<Baseline> baseline;
    if (options.baseline_path && options.bench) {
        std::string problem;
        CompareReportOptions compare;
        compare.settings.threshold = options.threshold_pct / 100;
        if (options.fail_if_slower) compare.gate = *options.fail_if_slower / 100;
        compare.hide_only_in_base = !options.filter.empty();
        baseline = load_baseline(*options.baseline_path, compare, problem);
        if (!baseline) return usage_error("--bench-baseline: " + problem);
    }
    const TierRequest request = tier_request(options);
    if (auto problem = events::check_event_selectors(request.metrics)) return usage_error(*problem);
    if (auto problem = syscalls::check_syscall_names(request)) return usage_error(*problem);
    if (options.group_by_list) return print_group_keys(options);
    if (!options.bench && !options.list_metrics && !options.capabilities) return run_plain(options);

    // The capability probe runs once, before any tier opens (it opens and closes what it needs
    // itself): --capabilities prints it, JSON meta records it.
    std::vector<Status> capabilities;
    if (options.capabilities || (options.json_path && options.bench))
        capabilities = probe_capabilities(request.perf);
    if (options.capabilities) return print_capabilities(capabilities);

    TierSet tiers;
    tiers.open(request, make_tiers());
    if (options.list_metrics) return print_metric_listing(options, tiers.catalog());
    for (const Status& refused : tiers.refusals())  // the listing gives the reason instead
        std::fprintf(stderr, "glint: note: %s\n", note_line(refused).c_str());

    std::vector<std::string> notes = tiers.header_notes();
    if (baseline) notes.push_back(baseline_header(*baseline));

    const bool live = os::stdout_is_terminal();
    const SortSpec sort{options.sort_by, options.sort_descending};
    auto table = options.format == "box" ? make_table_reporter(stdout, live, sort)
                                         : make_text_format_reporter(stdout, options.format, sort);
    BenchRun run(options, *table, tiers);
    if (baseline) run.compare_with(&*baseline);
    const std::vector<std::string> header = header_lines(options, notes);
    std::vector<Row> rows = run.run(header);
    warn_unknown_sort_column(options, run.catalog());

    int status = run.any_failed() ? 1 : 0;
    std::optional<BaselineComparison> compared;
    if (baseline) {  // the verdicts, as glint-compare prints them (csv: to stderr)
        compared.emplace(*baseline, rows);
        const std::string text = compared->text(options.format == "md" ? CompareFormat::md : CompareFormat::box);
        std::fputs(("\n" + text).c_str(), options.format == "csv" ? stderr : stdout);
        if (compared->gate_failed()) status = 1;
    }
    warn_duplicate_identities(rows);
    if (options.html_path) {
        if (auto error = write_run_html(*options.html_path, rows, run.catalog(), header,
                                        baseline ? &*baseline : nullptr, compared ? &*compared : nullptr)) {
            std::fprintf(stderr, "glint: error: --bench-html: %s\n", error->c_str());
            status = status ? status : 1;
        }
    }
    if (options.json_path) {
        Json meta = run_meta(options, tiers, capabilities);
        if (compared) meta["baseline"] = compared->meta();
        // The available metrics, and the unavailable ones named in --metrics (null in every row,
        // with the reason in columns, as the table shows them —).
        const std::vector<std::string>& selection = tiers.selection();
        std::vector<catalog::MetricDescriptor> columns;
        for (const auto& d : run.catalog()) {
            const bool named = std::find(selection.begin(), selection.end(), d.name) != selection.end();
            if (d.available || named) columns.push_back(d);
        }
        if (auto error = write_json_atomically(*options.json_path, build_document(meta, columns, rows))) {
            std::fprintf(stderr, "glint: error: --bench-json: %s\n", error->c_str());
            status = status ? status : 1;
        }
    }
    return status;
}

}  // namespace glint
