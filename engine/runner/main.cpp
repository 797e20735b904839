// glint::main: parse and plan (engine/cli/: every flag checked), check against the cases,
// open tiers, run, report. Exit status: 0 all passed, 1 a case
// failed (or an output could not be written, or a case left through _exit(0):
// engine/runner/keeping/supervision.hpp; or the --fail-if-slower gate failed), 2 bad usage
// (reported before anything is measured), 3 the gate could not judge a row, 128 + signal when a
// signal stopped a --bench run (engine/runner/keeping/guarded_run.hpp).
#include <glint/main.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <span>
#include <variant>

#include "engine/baseline/baseline.hpp"
#include "engine/capabilities/capabilities.hpp"
#include "engine/cli/option_table.hpp"
#include "engine/cli/options.hpp"
#include "engine/compare/document.hpp"
#include "engine/environment/run_environment.hpp"
#include "engine/environment/seen_warnings.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/registry/params.hpp"
#include "engine/report/json_report.hpp"
#include "engine/report/reporter.hpp"
#include "engine/report/text.hpp"
#include "engine/runner/bench/run_info.hpp"
#include "engine/runner/isolation/isolated_run.hpp"
#include "engine/runner/keeping/guarded_run.hpp"
#include "engine/runner/keeping/journal.hpp"
#include "engine/runner/keeping/supervision.hpp"
#include "engine/runner/modes/info_modes.hpp"
#include "engine/runner/modes/list_and_version.hpp"
#include "engine/runner/modes/plain_run.hpp"
#include "engine/runner/preflight.hpp"
#include "engine/runner/simulate.hpp"
#include "engine/threads/thread_team.hpp"
#include "engine/tiers/registry.hpp"
#include "engine/tiers/tier_set.hpp"
#include "os/files.hpp"
#include "os/terminal.hpp"

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
            std::fprintf(stderr, "glint: error: writing the standard output failed%s%s\n",
                         error ? ": " : "", error ? std::strerror(error) : "");
        return status ? status : 1;
    }
    return status;
}

int run_main(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
    const int status = check_stdout(run_main(argc, argv));
    supervised_finished();
    return status;
}

namespace {

int run_main(int argc, char** argv) {
    RunPlan plan;
    try {
        plan = plan_run(parse_options(std::span<const char* const>(
            argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0))));
    } catch (const UsageError& e) {
        return usage_error(e.what());
    }
    if (plan.mode == RunMode::help) {
        std::fputs((plan.help_markdown ? flags_markdown() : help_text()).c_str(), stdout);
        return 0;
    }
    if (plan.mode == RunMode::version) return print_version();
    if (plan.mode == RunMode::recover_journal)
        return recover_journal(*plan.recover_journal, plan.outputs.json_path);
    if (auto status = run_simulated(argc, argv, plan)) return *status;  // under Callgrind
    // Cases that run in this process are watched from outside
    // (engine/runner/keeping/supervision.hpp).
    if (!plan.cases.isolate && (plan.mode == RunMode::plain || plan.mode == RunMode::bench))
        supervise_run();
    const OutputFiles& outputs = plan.outputs;
    std::optional<Baseline> baseline;
    if (plan.comparison.baseline_path && plan.bench) {
        std::string problem;
        baseline = load_baseline(*plan.comparison.baseline_path, plan.comparison.compare, problem);
        if (!baseline) return usage_error("--bench-baseline: " + problem);
    }
    const TierRequest& request = plan.tiers;
    if (auto problem = registration_problem(registrations())) return usage_error(*problem);
    // Bodies run without measuring to learn case names and labels: in a child under --isolate.
    const Discover discover = [&](const CaseRun& c) -> std::optional<std::vector<DiscoveredCase>> {
        if (!plan.cases.isolate) return discover_cases(c);
        std::string problem;
        auto found = discover_in_child(c, plan.cases.case_timeout_s, problem);
        if (!found)
            report::print_wrapped(stderr,
                                  "glint: note: listing the cases: " + sanitize::terminal(problem));
        return found;
    };
    if (plan.mode != RunMode::list_metrics && plan.mode != RunMode::capabilities)
        if (auto problem = check_filter(plan.cases, discover)) return usage_error(*problem);
    for (const auto& note : plan.notes)
        report::print_wrapped(stderr, "glint: note: " + sanitize::terminal(note));
    if (plan.mode == RunMode::group_keys) return print_group_keys(plan.cases);
    if (plan.mode == RunMode::list) return print_case_list(plan.cases, plan.list_json);
    if (plan.mode == RunMode::plain)
        return plain_summary(plan.cases.isolate ? run_plain_isolated(plan.cases)
                                                : run_plain_cases(plan.cases, nullptr));
    // --pin / --numa-node apply before anything is measured (a request that cannot be met is
    // bad usage); the environment is read once they hold.
    std::optional<RunEnvironment> environment;
    if (plan.mode == RunMode::bench) {
        auto placement = apply_placement(plan.placement);
        if (auto* problem = std::get_if<std::string>(&placement)) return usage_error(*problem);
        const Placement& applied = std::get<Placement>(placement);
        if (applied.pinned)  // a team's workers: not on the measuring thread's one CPU
            set_worker_cpus(applied.request.numa_node ? applied.cpus : applied.allowed);
        environment.emplace(std::get<Placement>(std::move(placement)), plan.quiet_environment);
        // A person at a terminal reads each warning in full once; a piped log always in full.
        if (!outputs.stdout_taken && os::stdout_is_terminal())
            if (auto path = seen_warnings_path()) environment->say_seen_briefly(*path);
    }

    // The capability probe runs once, before any tier opens (it opens and closes what it needs
    // itself): --capabilities prints it, JSON meta records it.
    std::vector<Status> capabilities;
    if (plan.mode == RunMode::capabilities || (outputs.json_path && plan.bench))
        capabilities = probe_capabilities(request.perf);
    if (plan.mode == RunMode::capabilities) return print_capabilities(capabilities);

    TierSet tiers;
    tiers.open(request, make_tiers());
    if (plan.mode == RunMode::list_metrics)
        return print_metric_listing(plan.cases, tiers.catalog());
    for (const Status& refused : tiers.refusals())  // the listing gives the reason instead
        report::print_wrapped(stderr, "glint: note: " + sanitize::terminal(note_line(refused)));

    std::vector<catalog::MetricDescriptor> columns = tiers.catalog();
    if (baseline)
        for (auto& d : baseline_family()) columns.push_back(std::move(d));
    if (auto problem = check_table_keys(plan.cases, plan.measuring, plan.table, columns,
                                        tiers.selection(), discover))
        return usage_error(*problem);
    if (outputs.json)
        for (const auto& note : stale_journal_notes(*outputs.json))
            report::print_wrapped(stderr, "glint: note: " + sanitize::terminal(note));

    std::vector<std::string> notes =
        environment ? environment->header_lines() : std::vector<std::string>{};
    for (auto& n : tiers.header_notes()) notes.push_back(std::move(n));
    if (baseline) notes.push_back(baseline_header(*baseline));
    return run_guarded_bench(BenchSetup{plan, tiers, capabilities, baseline ? &*baseline : nullptr,
                                        notes, environment ? &*environment : nullptr});
}

}  // namespace

}  // namespace glint
