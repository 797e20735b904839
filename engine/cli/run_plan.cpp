#include "engine/cli/run_plan.hpp"

#include "engine/baseline/baseline.hpp"
#include "engine/cli/option_table.hpp"
#include "engine/cli/options.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/tiers/events/selectors.hpp"
#include "engine/tiers/syscalls/syscall_names.hpp"
#include "os/process.hpp"

namespace glint::engine {
namespace {

RunMode mode_of(const Options& o) {
    if (o.help) return RunMode::help;
    if (o.version) return RunMode::version;
    if (o.recover_journal) return RunMode::recover_journal;
    if (o.group_by_list) return RunMode::group_keys;
    if (o.list) return RunMode::list;
    if (!o.bench && !o.list_metrics && !o.capabilities) return RunMode::plain;
    if (o.capabilities) return RunMode::capabilities;
    if (o.list_metrics) return RunMode::list_metrics;
    return RunMode::bench;
}

[[noreturn]] void refuse(const std::string& message) { throw UsageError(message); }

std::optional<os::OutputTarget> writable(const char* flag, const std::string& path) {
    std::string problem;
    auto target = os::resolve_writable_output(path, problem);
    if (!target) refuse(std::string(flag) + ": " + problem);
    return target;
}

bool writes_stdout(const std::optional<os::OutputTarget>& target) {
    return target && target->mode == os::OutputMode::descriptor && target->fd == 1;
}

// Every check across flags, in the order the messages have always come: the output targets,
// --isolate's child processes, the baseline's gate and inputs, the tiers' selectors, --filter's
// syntax.
void check_plan(RunPlan& plan) {
    OutputFiles& out = plan.outputs;
    if (out.json_path && plan.bench) out.json = writable("--bench-json", *out.json_path);
    if (plan.cases.isolate) {
        std::string why;
        if (!os::child_processes_available(why)) refuse("--isolate: " + why);
    }
    if (out.html_path && plan.bench) out.html = writable("--bench-html", *out.html_path);
    if (plan.comparison.compare.gate && !plan.comparison.baseline_path)
        refuse("--fail-if-slower: gates a comparison; add --bench-baseline=FILE");
    if (plan.comparison.compare.allow_unjudged && !plan.comparison.compare.gate)
        refuse("--allow-unjudged: relaxes the gate; add --fail-if-slower=PCT");
    if (!out.folded_path.empty()) out.folded = writable("--profile-folded", out.folded_path);
    const auto as_given = [](const std::optional<os::OutputTarget>& t) {
        return t ? &*t : nullptr;
    };
    if (auto problem = os::shared_output_problem({{"--bench-json", as_given(out.json)},
                                                  {"--bench-html", as_given(out.html)},
                                                  {"--profile-folded", as_given(out.folded)}}))
        refuse(*problem);
    if (plan.comparison.baseline_path && plan.bench)
        // --bench-json may replace its baseline (a rolling baseline); the others never do.
        for (const auto& [flag, target] : {std::pair{"--bench-html", as_given(out.html)},
                                           std::pair{"--profile-folded", as_given(out.folded)}})
            for (const auto& file : side_files(*plan.comparison.baseline_path))
                if (target && os::overwrites_input(*target, file))
                    refuse(std::string(flag) + " ('" + target->given +
                           "') would overwrite the --bench-baseline document '" + file +
                           "'; give it its own file");
    out.stdout_taken = writes_stdout(out.json) || writes_stdout(out.html) ||
                       writes_stdout(out.folded) || plan.table.format == "gbench-json";
    if (auto problem = events::check_event_selectors(plan.tiers.metrics)) refuse(*problem);
    if (auto problem = syscalls::check_syscall_names(plan.tiers)) refuse(*problem);
    if (auto problem = check_filter(plan.cases.filter))
        refuse(*problem);  // its syntax, in every mode
}

}  // namespace

RunPlan plan_run(const Options& o) {
    RunPlan plan;
    plan.mode = mode_of(o);
    plan.help_markdown = o.help_markdown;
    plan.bench = o.bench;
    plan.cases = o.cases;
    plan.measuring = o.measuring;
    plan.table = o.table;
    plan.outputs.json_path = o.json_path;
    plan.outputs.json_all_samples = o.json_all_samples;
    plan.outputs.html_path = o.html_path;
    plan.outputs.folded_path = o.profile.folded_path;
    plan.comparison.baseline_path = o.baseline_path;
    plan.comparison.compare.settings.threshold = o.threshold_pct / 100;
    if (o.fail_if_slower) plan.comparison.compare.gate = *o.fail_if_slower / 100;
    plan.comparison.compare.hide_only_in_base = !o.cases.filter.empty();
    plan.comparison.compare.allow_unjudged = o.allow_unjudged;
    plan.tiers = tier_request(o);
    plan.placement = placement_request(o);
    plan.quiet_environment = o.quiet_environment;
    plan.list_json = o.list_json;
    plan.recover_journal = o.recover_journal;
    plan.knobs = recorded_knobs(o);
    plan.notes = ineffective_flag_notes(o);
    if (plan.mode != RunMode::help && plan.mode != RunMode::version &&
        plan.mode != RunMode::recover_journal)
        check_plan(plan);
    return plan;
}

}  // namespace glint::engine
