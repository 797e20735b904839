#include "engine/cli/run_plan.hpp"

#include "engine/cli/options.hpp"

namespace glint::engine {
namespace {

const char* perf_read_name(PerfRead r) {
    switch (r) {
        case PerfRead::automatic: return "auto";
        case PerfRead::rdpmc: return "rdpmc";
        case PerfRead::syscall: return "syscall";
        case PerfRead::compare: return "compare";
    }
    return "auto";
}

Json string_array(const std::vector<std::string>& items) {
    Json a = Json::array();
    for (const auto& i : items) a.push_back(i);
    return a;
}

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

Json knobs_of(const Options& o) {
    Json knobs = Json::object();
    knobs["minTimeMs"] = o.min_time_ms;
    knobs["samples"] = 32;
    knobs["repetitions"] = o.repeat;
    knobs["filter"] = o.filter.empty() ? Json{} : Json(o.filter);
    knobs["perf"] = o.perf;
    knobs["perfScaled"] = o.perf_scaled;
    knobs["perfInherit"] = o.perf_inherit;
    knobs["perfIters"] = o.perf_iters ? Json(*o.perf_iters) : Json{};
    knobs["perfBatch"] = o.perf_batch ? Json(*o.perf_batch) : Json{};
    knobs["perfRead"] = perf_read_name(o.perf_read);
    knobs["metrics"] = string_array(o.metrics);
    knobs["groupBy"] = o.group_by_all ? Json("all") : string_array(o.group_by);
    knobs["sortBy"] = o.sort_by.empty() ? Json{} : Json((o.sort_descending ? "-" : "") + o.sort_by);
    return knobs;
}

}  // namespace

RunPlan plan_run(const Options& o) {
    RunPlan plan;
    plan.mode = mode_of(o);
    plan.bench = o.bench;
    plan.cases = CaseRun{o.filter, o.isolate, o.case_timeout_s};
    plan.measuring = Measuring{o.min_time_ms, o.repeat, o.group_by, o.group_by_all};
    plan.table = TableLayout{o.format, o.sort_by, o.sort_descending};
    plan.outputs = OutputFiles{o.json_path, o.json_all_samples, o.html_path, o.profile.folded_path};
    plan.comparison = BaselineSettings{o.baseline_path, o.threshold_pct, o.fail_if_slower};
    plan.tiers = tier_request(o);
    plan.placement = placement_request(o);
    plan.quiet_environment = o.quiet_environment;
    plan.list_json = o.list_json;
    plan.recover_journal = o.recover_journal;
    plan.knobs = knobs_of(o);
    plan.notes = ineffective_flag_notes(o);
    return plan;
}

}  // namespace glint::engine
