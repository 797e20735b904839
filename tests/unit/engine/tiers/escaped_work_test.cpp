// The work a one-thread row's counters did not see (engine/tiers/escaped_work.hpp): which
// threads ran during the passes, from two censuses, and how the line under the table names them
// (CaseMeasurer::coverage_line).
#include <doctest/doctest.h>

#include <string>

#include "engine/runner/bench/case_measure.hpp"
#include "engine/tiers/escaped_work.hpp"
#include "support/thread_coverage.hpp"

using namespace glint::engine;
using glint::os::TaskCensus;

TEST_CASE(
    "escaped threads: those that ran, the measuring thread excepted, most CPU first, new or not") {
    TaskCensus before{true,
                      {{10, "main", 1000, 1000}, {11, "pool", 500, 500}, {12, "idle", 70, 70}}};
    TaskCensus after{true,
                     {{10, "main", 9000, 9000},
                      {11, "pool", 900, 900},
                      {12, "idle", 70, 70},
                      {13, "new", 2000, 2000}}};
    const ThreadsAtOpen at_open{true, {10, 11, 12}};
    const auto named = escaped_threads(before, after, 10, at_open);
    REQUIRE(named.size() == 2);
    CHECK(named[0].tid == 13);  // new since `before`: all its time is within
    CHECK(named[0].name == "new");
    CHECK(named[0].cpu_ns == 2000);
    CHECK(named[0].existed_before == 0);
    CHECK(named[1].tid == 11);
    CHECK(named[1].cpu_ns == 400);
    CHECK(named[1].existed_before == 1);
    // Not known which threads were there at the open; a census that failed names none.
    CHECK(escaped_threads(before, after, 10, ThreadsAtOpen{})[0].existed_before == -1);
    CHECK(escaped_threads(TaskCensus{}, after, 10, at_open).empty());
}

TEST_CASE("escaped threads: the line under the table names them, with the remedy that fits each") {
    Row row;
    Json coverage = glint::test::thread_coverage();
    coverage["escaped"].push_back(glint::test::escaped_thread(4711, "pool", 1.25e6, Json(true)));
    for (long tid = 4712; tid < 4717; ++tid)
        coverage["escaped"].push_back(glint::test::escaped_thread(tid, "worker", 2e5, Json(false)));
    row.extra_fields["threadCoverage"] = coverage;
    const auto line = CaseMeasurer::coverage_line(row, "case");
    REQUIRE(line);
    CHECK(line->find("threads: case: work outside the measuring thread escaped the counts · 1 "
                     "thread escaped: "
                     "4711 pool (1.25 ms): it existed before the counters opened: --perf-inherit "
                     "counts it (a "
                     "group on each in the perf, raw:, pfm: and syscall tiers; tier 0 does too)") ==
          0);
    CHECK(line->find(" · 5 threads escaped: 4712 worker (0.2 ms), 4713 worker (0.2 ms), 4714 "
                     "worker (0.2 ms) "
                     "and 2 more: count them with --perf-inherit") != std::string::npos);
}

TEST_CASE("unwaited children: those that ran during the passes, new or grown, most CPU first") {
    using glint::os::ChildCensus;
    // pid, name, cpu_ns, exited, parent_tid
    const ChildCensus before{true, {{20, "old", 1000, false, 10}, {21, "idle", 50, false, 10}}};
    const ChildCensus after{true,
                            {{20, "old", 1500, false, 10},
                             {21, "idle", 50, false, 10},
                             {22, "new", 3000, false, 10},
                             {23, "zombie", 800, true, 10},
                             {24, "pool's", 700, true, 11},
                             {25, "unread", -1, false, 10}}};
    const ThreadsAtOpen at_open{true, {10, 11}};
    const auto all = unwaited_children(before, after, false, 10, at_open);
    REQUIRE(all.size() == 4);
    CHECK(all[0].pid == 22);  // new since `before`: all its time is within
    CHECK(all[0].cpu_ns == 3000);
    CHECK(all[1].pid == 23);
    CHECK(all[1].exited);
    CHECK(all[2].pid == 24);
    CHECK(all[3].pid == 20);  // alive before: its growth
    CHECK(all[3].cpu_ns == 500);
    // Under inherit, a child that ended joined the counts of the thread that forked it when that
    // thread inherits (the measuring thread 10); thread 11 was alive at the open: not inherited.
    const auto inherit = unwaited_children(before, after, true, 10, at_open);
    REQUIRE(inherit.size() == 3);
    CHECK(inherit[0].pid == 22);
    CHECK(inherit[1].pid == 24);
    CHECK(inherit[2].pid == 20);
    CHECK(unwaited_children(ChildCensus{}, after, false, 10, at_open).empty());  // not known: none
}

TEST_CASE("unwaited children: the line under the table names them") {
    Row row;
    Json coverage = glint::test::thread_coverage();
    coverage["missedWhy"].push_back(
        "1 child process the body started ... wait for it within the case");
    Json child = Json::object();
    child["pid"] = 4711;
    child["name"] = "threads";
    child["cpuNs"] = 1.02e6;
    child["exited"] = false;
    coverage["unwaitedChildren"] = Json::array();
    coverage["unwaitedChildren"].push_back(child);
    row.extra_fields["threadCoverage"] = coverage;
    const auto line = CaseMeasurer::coverage_line(row, "case");
    REQUIRE(line);
    CHECK(line->find("wait for it within the case · 1 child process not waited for: 4711 threads "
                     "(1.02 ms)") != std::string::npos);
}
