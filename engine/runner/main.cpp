// glint::main: parse, validate, open tiers, run, report. Exit status: 0 all passed, 1 a case
// failed, 2 bad usage (reported before anything is measured).
#include <glint/main.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <span>

#include "catalog/selection.hpp"
#include "engine/capabilities/capabilities.hpp"
#include "engine/baseline/baseline.hpp"
#include "engine/cli/options.hpp"
#include "engine/report/json_report.hpp"
#include "engine/report/reporter.hpp"
#include "engine/runner/bench_run.hpp"
#include "engine/runner/listing.hpp"
#include "engine/runner/plain_run.hpp"
#include "engine/runner/run_info.hpp"
#include "engine/tiers/client_metrics.hpp"
#include "engine/tiers/events/selectors.hpp"
#include "engine/tiers/registry.hpp"
#include "engine/tiers/syscalls/syscall_names.hpp"

namespace glint {
namespace {

using namespace engine;

int usage_error(const std::string& message) {
    std::fprintf(stderr, "glint: error: %s\n", message.c_str());
    return 2;
}

// The tiers the options ask for (every tier for --list-metrics, so the listing tells what this
// host can count), opened. Statuses of every opened tier are collected.
std::vector<std::unique_ptr<Tier>> open_tiers(const Options& options,
                                              std::vector<std::unique_ptr<Tier>>& all,
                                              std::vector<Status>& statuses,
                                              std::vector<catalog::MetricDescriptor>& catalog) {
    std::vector<catalog::MetricDescriptor> unopened;
    for (auto& t : all) {
        auto f = t->family();
        unopened.insert(unopened.end(), f.begin(), f.end());
    }
    std::vector<std::unique_ptr<Tier>> open;
    for (auto& t : all) {
        const bool want = options.list_metrics || t->wanted(options) ||
                          catalog::selects_source(unopened, options.metrics, std::string(t->source()));
        if (!want) {
            // Listed (--list-metrics) but never a visible column: the tier was not asked for.
            for (auto d : t->family()) {
                d.is_default = false;
                catalog.push_back(std::move(d));
            }
            continue;
        }
        auto st = t->open(options);
        statuses.insert(statuses.end(), st.begin(), st.end());
        auto f = t->family();
        catalog.insert(catalog.end(), f.begin(), f.end());
        if (!st.empty() && st.front().usable()) {
            open.push_back(std::move(t));
        } else if (!st.empty() && !options.list_metrics) {  // the listing gives the reason
            std::fprintf(stderr, "glint: note: %s: %s%s%s\n", st.front().capability.c_str(),
                         st.front().reason.c_str(), st.front().remedy.empty() ? "" : " — remedy: ",
                         st.front().remedy.c_str());
        }
    }
    return open;
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
    std::optional<Baseline> baseline;
    if (options.baseline_path && options.bench) {
        std::string problem;
        baseline = load_baseline(*options.baseline_path, problem);
        if (!baseline) return usage_error("--bench-baseline: " + problem);
    }
    if (auto problem = events::check_event_selectors(options)) return usage_error(*problem);
    if (auto problem = syscalls::check_syscall_names(options)) return usage_error(*problem);
    if (options.group_by_list) return print_group_keys(options);
    if (!options.bench && !options.list_metrics && !options.capabilities) return run_plain(options);

    // The capability probe opens what it needs itself; no tier is opened for it.
    if (options.capabilities) return print_capabilities(probe_capabilities(options));

    auto all = make_tiers();
    std::vector<Status> statuses;
    std::vector<catalog::MetricDescriptor> catalog;
    auto tiers = open_tiers(options, all, statuses, catalog);

    if (options.list_metrics) return print_metric_listing(options, catalog);

    // --syscalls columns stay visible beside an explicit --metrics list.
    Options run_options = options;
    for (auto& name : syscalls::syscall_flag_selectors(options, catalog))
        run_options.metrics.push_back(std::move(name));

    std::vector<std::string> notes;
    for (const auto& t : tiers)
        for (auto& n : t->header_notes()) notes.push_back(std::move(n));
    if (baseline) {
        for (auto& d : baseline_family()) catalog.push_back(std::move(d));
        notes.push_back(baseline_header(*baseline));
    }

    const bool live = isatty(STDOUT_FILENO) == 1;
    auto table = make_table_reporter(stdout, live, SortSpec{options.sort_by, options.sort_descending});
    BenchRun run(run_options, *table, tiers, catalog);
    if (baseline) run.compare_with(&*baseline);
    std::vector<Row> rows = run.run(header_lines(options, tiers, notes));
    warn_unknown_sort_column(options, run.catalog());

    int status = run.any_failed() ? 1 : 0;
    if (options.json_path) {
        Json meta = run_meta(options, tiers, statuses);
        if (baseline) meta["baseline"] = baseline_meta(*baseline, rows);
        // The available metrics, and the unavailable ones named in --metrics (null in every row,
        // with the reason in columns, as the table shows them —).
        std::vector<catalog::MetricDescriptor> columns;
        for (const auto& d : run.catalog()) {
            const bool named = std::find(run_options.metrics.begin(), run_options.metrics.end(),
                                         d.name) != run_options.metrics.end();
            if (d.available || named) columns.push_back(d);
        }
        if (auto error = write_json_atomically(*options.json_path, build_document(meta, columns, rows))) {
            std::fprintf(stderr, "glint: error: --bench-json: %s\n", error->c_str());
            status = status ? status : 1;
        }
    }
    for (auto& t : tiers) t->close();
    return status;
}

}  // namespace glint
