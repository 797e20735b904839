// The run plan: the mode the flags select, the pieces the runner takes, and every check across
// flags made before anything opens (engine/cli/run_plan.hpp).
#include <doctest/doctest.h>

#include "parse.hpp"
#include "support/platform.hpp"

using namespace glint::engine;
using glint::engine::test::parse;

namespace {

std::string plan_error(std::vector<const char*> args) {
    try {
        plan_run(parse(args));
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("run plan: the mode, in precedence order") {
    CHECK(plan_run(parse({"--help", "--version"})).mode == RunMode::help);
    CHECK(plan_run(parse({"--version", "--list"})).mode == RunMode::version);
    CHECK(plan_run(parse({"--recover-journal=j", "--list"})).mode == RunMode::recover_journal);
    CHECK(plan_run(parse({"--group-by=list", "--list"})).mode == RunMode::group_keys);
    CHECK(plan_run(parse({"--list", "--bench"})).mode == RunMode::list);
    CHECK(plan_run(parse({})).mode == RunMode::plain);
    CHECK(plan_run(parse({"--capabilities", "--list-metrics"})).mode == RunMode::capabilities);
    CHECK(plan_run(parse({"--list-metrics", "--bench"})).mode == RunMode::list_metrics);
    CHECK(plan_run(parse({"--bench"})).mode == RunMode::bench);
}

TEST_CASE("run plan: each piece carries its flags") {
    // --isolate only where the build has child processes (the generic OS refuses it in the plan).
    const RunPlan plan = plan_run(
        parse({"--bench", "--filter=a*", glint::test::kLinux ? "--isolate" : "--quiet-environment",
               "--case-timeout=7", "--bench-repeat=3", "--bench-min-time=2", "--group-by=all",
               "--sort-by=-median", "--bench-format=md", "--threshold=5", "--pin=2",
               "--quiet-environment"}));
    CHECK(plan.cases.filter == "a*");
    CHECK(plan.cases.isolate == glint::test::kLinux);
    CHECK(plan.cases.case_timeout_s == 7);
    CHECK(plan.measuring.repeat == 3);
    CHECK(plan.measuring.min_time_ms == 2);
    CHECK(plan.measuring.group_by_all);
    CHECK(plan.table.sort_by == "median");
    CHECK(plan.table.sort_descending);
    CHECK(plan.table.format == "md");
    CHECK(plan.comparison.compare.settings.threshold == doctest::Approx(0.05));
    CHECK(plan.comparison.compare.hide_only_in_base);
    CHECK(plan.placement.pin == PlacementRequest::Pin::cpu);
    CHECK(plan.quiet_environment);
    CHECK_FALSE(plan.outputs.json);  // no --bench-json: nothing resolved
}

TEST_CASE("run plan: the checks across flags are the plan's") {
    CHECK(plan_error({"--bench", "--fail-if-slower=5"}) ==
          "--fail-if-slower: gates a comparison; add --bench-baseline=FILE");
    CHECK(plan_error({"--bench", "--bench-json=/nonexistent-dir/x.json"})
              .rfind("--bench-json: ", 0) == 0);
    CHECK(plan_error({"--bench", "--bench-html=/nonexistent-dir/x.html"})
              .rfind("--bench-html: ", 0) == 0);
    CHECK(plan_error({"--bench", "--profile-folded=/nonexistent-dir/f"})
              .rfind("--profile-folded: ", 0) == 0);
    CHECK(plan_error({"--bench", "--metrics=raw:zz"}).find("raw:zz") != std::string::npos);
    CHECK(plan_error({"--bench", "--syscalls=no-such.call"})
              .rfind("--syscalls: 'no-such.call' is not a system call name", 0) == 0);
    // --help, --version and --recover-journal open nothing, so check nothing.
    CHECK(plan_error({"--help", "--bench", "--fail-if-slower=5"}) == "");
    CHECK(plan_error({"--version", "--bench", "--bench-json=/nonexistent-dir/x.json"}) == "");
}

TEST_CASE("run plan: two outputs naming one file are refused") {
    const std::string message = plan_error({"--bench", "--bench-json=-", "--bench-html=-"});
    CHECK(message.find("--bench-html") != std::string::npos);
    CHECK(plan_run(parse({"--bench", "--bench-json=-"})).outputs.stdout_taken);
}
