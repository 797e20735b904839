// glint::main: parse, validate, open tiers, run, report. Exit status: 0 all passed, 1 a case
// failed (or an output could not be written, or a case left through _exit(0):
// engine/runner/keeping/supervision.hpp), 2 bad usage (reported before anything is
// measured), 128 + signal when a signal stopped a --bench run (engine/runner/keeping/guarded_run.hpp).
#include <glint/main.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <span>
#include <variant>

#include "engine/capabilities/capabilities.hpp"
#include "engine/baseline/baseline.hpp"
#include "engine/cli/options.hpp"
#include "engine/compare/document.hpp"
#include "engine/environment/run_environment.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/report/json_report.hpp"
#include "engine/report/reporter.hpp"
#include "engine/registry/params.hpp"
#include "engine/runner/modes/list_and_version.hpp"
#include "engine/runner/keeping/guarded_run.hpp"
#include "engine/runner/isolation/isolated_run.hpp"
#include "engine/runner/keeping/journal.hpp"
#include "engine/runner/modes/info_modes.hpp"
#include "engine/runner/preflight.hpp"
#include "engine/runner/modes/plain_run.hpp"
#include "engine/runner/bench/run_info.hpp"
#include "engine/runner/keeping/supervision.hpp"
#include "engine/tiers/events/selectors.hpp"
#include "engine/tiers/registry.hpp"
#include "engine/tiers/tier_set.hpp"
#include "os/files.hpp"
#include "os/process.hpp"
#include "engine/tiers/syscalls/syscall_names.hpp"

namespace glint {
namespace {

using namespace engine;

int usage_error(const std::string& message) {
    std::fprintf(stderr, "glint: error: %s\n", sanitize::terminal(message).c_str());
    return 2;
}

// Whatever was printed must have reached the standard output (a full disk, /dev/full).
int check_stdout(int status) {
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        const int error = errno;
        if (error != EPIPE)  // a closed pipe: nobody reads; the status says so (141)
            std::fprintf(stderr, "glint: error: writing the standard output failed%s%s\n", error ? ": " : "",
                         error ? std::strerror(error) : "");
        return status ? status : 1;
    }
    return status;
}

int run_main(int argc, char** argv);

bool writes_stdout(const std::optional<os::OutputTarget>& target) {
    return target && target->mode == os::OutputMode::descriptor && target->fd == 1;
}

}  // namespace

int main(int argc, char** argv) {
    const int status = check_stdout(run_main(argc, argv));
    supervised_finished();
    return status;
}

namespace {

int run_main(int argc, char** argv) {
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
    if (options.version) return print_version();
    if (options.recover_journal) return recover_journal(*options.recover_journal, options.json_path);
    // Cases that run in this process are watched from outside (engine/runner/keeping/supervision.hpp).
    if (!options.isolate && !options.list && !options.list_metrics && !options.capabilities && !options.group_by_list)
        supervise_run();
    std::optional<os::OutputTarget> json_target;
    if (options.json_path && options.bench) {
        std::string problem;
        json_target = os::resolve_writable_output(*options.json_path, problem);
        if (!json_target) return usage_error("--bench-json: " + problem);
    }
    if (options.isolate) {
        std::string why;
        if (!os::child_processes_available(why)) return usage_error("--isolate: " + why);
    }
    std::optional<os::OutputTarget> html_target;
    if (options.html_path && options.bench) {
        std::string problem;
        html_target = os::resolve_writable_output(*options.html_path, problem);
        if (!html_target) return usage_error("--bench-html: " + problem);
    }
    if (options.fail_if_slower && !options.baseline_path)
        return usage_error("--fail-if-slower: gates a comparison; add --bench-baseline=FILE");
    std::optional<os::OutputTarget> folded_target;
    if (!options.profile.folded_path.empty()) {
        std::string problem;
        folded_target = os::resolve_writable_output(options.profile.folded_path, problem);
        if (!folded_target) return usage_error("--profile-folded: " + problem);
    }
    const auto as_given = [](const std::optional<os::OutputTarget>& t) { return t ? &*t : nullptr; };
    if (auto problem = os::shared_output_problem({{"--bench-json", as_given(json_target)},
                                                  {"--bench-html", as_given(html_target)},
                                                  {"--profile-folded", as_given(folded_target)}}))
        return usage_error(*problem);
    std::optional<Baseline> baseline;
    if (options.baseline_path && options.bench) {
        // --bench-json may replace its baseline (a rolling baseline); the others never do.
        for (const auto& [flag, target] : {std::pair{"--bench-html", as_given(html_target)},
                                           std::pair{"--profile-folded", as_given(folded_target)}})
            for (const auto& file : side_files(*options.baseline_path))
                if (target && os::overwrites_input(*target, file))
                    return usage_error(std::string(flag) + " ('" + target->given +
                                       "') would overwrite the --bench-baseline document '" + file +
                                       "'; give it its own file");
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
    if (auto problem = registration_problem(registrations())) return usage_error(*problem);
    // Bodies run without measuring to learn case names and labels: in a child under --isolate.
    const Discover discover = [&](const Options& o) -> std::optional<std::vector<DiscoveredCase>> {
        if (!options.isolate) return discover_cases(o);
        std::string problem;
        auto found = discover_in_child(o, options.case_timeout_s, problem);
        if (!found) std::fprintf(stderr, "glint: note: listing the cases: %s\n", sanitize::terminal(problem).c_str());
        return found;
    };
    if (!options.list_metrics && !options.capabilities)
        if (auto problem = check_filter(options, discover)) return usage_error(*problem);
    for (const auto& note : ineffective_flag_notes(options))
        std::fprintf(stderr, "glint: note: %s\n", sanitize::terminal(note).c_str());
    if (options.group_by_list) return print_group_keys(options);
    if (options.list) return print_case_list(options);
    if (!options.bench && !options.list_metrics && !options.capabilities)
        return plain_summary(options.isolate ? run_plain_isolated(options) : run_plain_cases(options, nullptr));
    // --pin / --numa-node apply before anything is measured (a request that cannot be met is
    // bad usage); the environment is read once they hold.
    std::optional<RunEnvironment> environment;
    if (options.bench && !options.capabilities && !options.list_metrics) {
        auto placement = apply_placement(placement_request(options));
        if (auto* problem = std::get_if<std::string>(&placement)) return usage_error(*problem);
        environment.emplace(std::get<Placement>(std::move(placement)), options.quiet_environment);
    }

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
        std::fprintf(stderr, "glint: note: %s\n", sanitize::terminal(note_line(refused)).c_str());

    std::vector<catalog::MetricDescriptor> columns = tiers.catalog();
    if (baseline)
        for (auto& d : baseline_family()) columns.push_back(std::move(d));
    if (auto problem = check_table_keys(options, columns, discover)) return usage_error(*problem);
    if (json_target)
        for (const auto& note : stale_journal_notes(*json_target))
            std::fprintf(stderr, "glint: note: %s\n", sanitize::terminal(note).c_str());

    std::vector<std::string> notes = environment ? environment->header_lines() : std::vector<std::string>{};
    for (auto& n : tiers.header_notes()) notes.push_back(std::move(n));
    if (baseline) notes.push_back(baseline_header(*baseline));
    return run_guarded_bench(BenchSetup{options, request, tiers, capabilities, baseline ? &*baseline : nullptr,
                                        json_target ? &*json_target : nullptr, notes,
                                        environment ? &*environment : nullptr,
                                        html_target ? &*html_target : nullptr,
                                        writes_stdout(json_target) || writes_stdout(html_target) ||
                                            writes_stdout(folded_target)});
}

}  // namespace

}  // namespace glint
