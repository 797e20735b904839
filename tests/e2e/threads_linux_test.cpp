// End to end: multi-threaded cases (glint::threads; fixture threads.cpp, docs/threads.md).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/model/json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;

namespace {

using Run = glint::test::DocumentRun<Json>;

Run run_json(std::vector<std::string> args, const std::string& stem) {
    args.insert(args.begin(), fixture_path("threads"));
    return glint::test::run_with_document<Json>(args, glint::test::temp_json_path(stem));
}

const Json* row_of(const Json& doc, const std::string& name, const std::string& threads) {
    for (const auto& row : doc.at("rows").as_array())
        if (row.at("name").as_string() == name &&
            row.at("labels").at("threads").as_string() == threads)
            return &row;
    return nullptr;
}

}  // namespace

TEST_CASE(
    "e2e threads: a plain run runs each thread's callable once and refuses one-thread kinds") {
    const auto r = run_process({fixture_path("threads")});
    INFO(r.out, r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "ok    independent [threads=2]"));
    CHECK(contains(r.out, "ok    indices [threads=3]"));  // the callable saw indices 0, 1, 2
    CHECK(contains(r.out, "FAIL  throws [threads=2]: exception: worker 1 failed"));
    CHECK(contains(
        r.out,
        "FAIL  refused/batched [threads=2]: exception: glint::iter_batched runs on one thread"));
    CHECK(contains(
        r.out,
        "FAIL  refused/bench_case [threads=2]: exception: glint::bench_case runs on one thread"));
}

TEST_CASE(
    "e2e threads: rows per thread count, the slowest thread's time, a rate over every thread") {
    const Run r = run_json({"--bench", "--bench-min-time=2"}, "threads_rows");
    INFO(r.result.out, r.result.err);
    CHECK(r.result.exit_code == 1);  // the throwing and refused rows
    for (const char* name : {"independent", "shared"}) {
        const Json* one = row_of(r.doc, name, "1");
        const Json* two = row_of(r.doc, name, "2");
        REQUIRE(one);
        REQUIRE(two);
        CHECK_FALSE(one->find("error"));
        CHECK_FALSE(two->find("error"));
        CHECK_FALSE(one->find("threads"));  // one thread: no team
        CHECK(two->at("threads").as_number() == 2);
        CHECK(two->at("medianNs").as_number() > 0);
    }
    // B/s: 8 B an iteration on each of 2 threads, over the time per iteration.
    const Json& two = *row_of(r.doc, "independent", "2");
    const double rate = two.at("metrics").at("B/s").as_number();
    const double expected = 16 / two.at("medianNs").as_number() * 1e9;
    CHECK(std::fabs(rate - expected) <= 1e-3 * expected);
    const Json* indices = row_of(r.doc, "indices", "3");
    REQUIRE(indices);
    CHECK_FALSE(indices->find("error"));
    CHECK(indices->at("threads").as_number() == 3);
    const Json* thrown = row_of(r.doc, "throws", "2");
    REQUIRE(thrown);
    CHECK(thrown->at("error").as_string() == "exception: worker 1 failed");
    CHECK(
        contains(r.result.err,
                 "refused/batched [threads=2]: exception: glint::iter_batched runs on one thread"));
}

// task-clock counts each thread's CPU time: two busy threads on their own CPUs count twice what
// one does per iteration (the software-event check of per-thread counting).
TEST_CASE(
    "e2e threads: --perf counts on each thread, sums the threads, and keeps each one's counts") {
    const Run r = run_json({"--bench", "--bench-min-time=2", "--perf", "--filter=independent"},
                           "threads_perf");
    INFO(r.result.out, r.result.err);
    REQUIRE(r.result.exit_code == 0);
    const Json* one = row_of(r.doc, "independent", "1");
    const Json* two = row_of(r.doc, "independent", "2");
    REQUIRE(one);
    REQUIRE(two);
    CHECK_FALSE(one->find("counters"));
    CHECK_FALSE(one->find("threadCounts"));
    CHECK(contains(two->at("counters").as_string(),
                   "each of the 2 threads counted itself (perf: its own group"));
    const Json& coverage = two->at("threadCoverage");
    CHECK(coverage.at("threads").as_number() == 2);
    CHECK(coverage.at("counted").as_number() == 2);
    CHECK(coverage.at("missed").as_number() == 0);
    const double together = coverage.at("passesTogether").as_number();  // how much ran at once
    CHECK(together > 0);
    CHECK(together <= 1);
    const auto& each = two->at("threadCounts").as_array();
    REQUIRE(each.size() == 2);
    const double single = one->at("metrics").at("task-clock").as_number();
    const double first = each[0].at("task-clock").as_number(),
                 second = each[1].at("task-clock").as_number();
    const double sum = two->at("metrics").at("task-clock").as_number();
    CHECK(sum == doctest::Approx(first + second).epsilon(1e-5));  // JSON keeps 6 digits
    CHECK(first > 0.5 * single);
    CHECK(second > 0.5 * single);
    // Both threads counted: one thread's alone would read ~1. (No upper bound: threads that
    // time-shared a CPU under an ASan tree's ctest -j2 read 3.5x, each dearer than alone.)
    CHECK(sum / single > 1.3);
    CHECK(two->at("metrics").at("B/s").as_number() > 0);
    CHECK(contains(glint::test::unwrapped(r.result.err),
                   "independent [threads=2] and any other multi-threaded row: each of the 2 "
                   "threads counted itself"));
    CHECK(contains(r.result.out, "threads: independent [threads=2]: 2 of 2 counted, 0 missed"));
}

TEST_CASE("e2e threads: --isolate and --bench-repeat keep a multi-threaded row and its threads") {
    const Run r = run_json(
        {"--bench", "--bench-min-time=0.05", "--isolate", "--bench-repeat=2", "--filter=shared"},
        "threads_isolated");
    INFO(r.result.out, r.result.err);
    REQUIRE(r.result.exit_code == 0);
    const Json* two = row_of(r.doc, "shared", "2");
    REQUIRE(two);
    CHECK(two->at("threads").as_number() == 2);
    CHECK(two->at("repetitionMediansNs").as_array().size() == 2);
    const auto list = run_process({fixture_path("threads"), "--list"});
    CHECK(contains(list.out, "shared [threads=2]"));
}

// Sleeping threads switch out once an iteration each: the row's context switches are the two
// threads' sum, each thread's own about one.
TEST_CASE("e2e threads: context switches of 2 sleeping threads sum to about 2 an iteration") {
    const Run r = run_json({"--bench", "--bench-min-time=0.05", "--perf", "--filter=sleepers"},
                           "threads_sleepers");
    INFO(r.result.out, r.result.err);
    REQUIRE(r.result.exit_code == 0);
    const Json* row = row_of(r.doc, "sleepers", "2");
    REQUIRE(row);
    const auto& each = row->at("threadCounts").as_array();
    REQUIRE(each.size() == 2);
    for (const Json& mine : each) {
        const double switches = mine.at("context-switches").as_number();
        CHECK(switches >= 0.9);  // its sleep; a loaded machine may preempt it once more
        CHECK(switches <= 5);
    }
    const double sum = row->at("metrics").at("context-switches").as_number();
    CHECK(sum == doctest::Approx(each[0].at("context-switches").as_number() +
                                 each[1].at("context-switches").as_number())
                     .epsilon(1e-5));
    CHECK(sum >= 1.8);
}

// A one-thread row whose body's own work ran off the measuring thread (~1 ms an iteration):
// flagged without --perf-inherit (`field` beyond the 200 us bound, the reason starting `why`,
// the line under the table), counted with it (no coverage; task-clock holds that work).
void check_escaped_then_inherited(const std::string& filter, const char* field, const char* why) {
    const Run plain = run_json({"--bench", "--bench-min-time=0.05", "--perf", "--filter=" + filter},
                               "threads_" + filter);
    INFO(plain.result.out, plain.result.err);
    REQUIRE(plain.result.exit_code == 0);
    const Json& row = plain.doc.at("rows").as_array().at(0);
    const Json* coverage = row.find("threadCoverage");
    REQUIRE(coverage);
    CHECK(coverage->at(field).as_number() > 2e5);
    CHECK(coverage->at("missed").is_null());
    const std::string reason = coverage->at("missedWhy").as_array().at(0).as_string();
    CHECK(reason.find(why) == 0);
    CHECK(contains(reason, "--perf-inherit counts those"));
    CHECK(contains(
        glint::test::unwrapped(plain.result.out),
        "threads: " + filter + ": work outside the measuring thread escaped the counts · " + why));
    const Run inherited = run_json(
        {"--bench", "--bench-min-time=0.05", "--perf", "--perf-inherit", "--filter=" + filter},
        "threads_inherit_" + filter);
    INFO(inherited.result.err);
    REQUIRE(inherited.result.exit_code == 0);
    const Json& counted = inherited.doc.at("rows").as_array().at(0);
    CHECK_FALSE(counted.find("threadCoverage"));
    // That work's ~1 ms of CPU, in the count. (Not compared with the row's own count without
    // it: under ctest -j2 that once read 0.9 ms too, where a quiet run reads 17-36 us.)
    CHECK(counted.at("metrics").at("task-clock").as_number() > 2e5);
}

// A thread the body starts and joins each iteration (fixture "spawns"): the measuring thread's
// counters cannot see it; --perf-inherit counts it (it exits before the bracket closes).
TEST_CASE(
    "e2e threads: a thread the body starts escapes the counts and the row says so, and "
    "--perf-inherit counts it") {
    check_escaped_then_inherited("spawns", "otherCpuNs", "other threads of the process ran");
}

// A child process the body forks and waits for (fixture "forks"): outside the process's CPU
// clock, seen through RUSAGE_CHILDREN once waited for.
TEST_CASE(
    "e2e threads: a child process the body forks escapes the counts and the row says so, and "
    "--perf-inherit counts it") {
    check_escaped_then_inherited("forks", "childCpuNs", "child processes the body started ran");
}

// A child process the body forks and leaves running past the iteration (fixture "orphans": the
// last one is alive when the passes end, after 1 ms of CPU time in them): in no count, with or
// without --perf-inherit; the row and the line under the table name it, wait as the remedy.
TEST_CASE(
    "e2e threads: a child process not waited for when the passes end is reported, with or without "
    "--perf-inherit") {
    for (const bool inherit : {false, true}) {
        std::vector<std::string> args{"--bench", "--bench-min-time=0.05", "--perf",
                                      "--filter=orphans"};
        if (inherit) args.push_back("--perf-inherit");
        const Run r = run_json(args, inherit ? "threads_orphans_inherit" : "threads_orphans");
        INFO(inherit, r.result.out, r.result.err);
        REQUIRE(r.result.exit_code == 0);
        const Json* coverage = r.doc.at("rows").as_array().at(0).find("threadCoverage");
        REQUIRE(coverage);
        CHECK(coverage->at("unwaitedCpuNs").as_number() > 2e5);
        const auto& children = coverage->at("unwaitedChildren").as_array();
        REQUIRE_FALSE(children.empty());
        double named = 0;
        for (const Json& c : children) named += c.at("cpuNs").as_number();
        CHECK(named > 2e5);
        CHECK(children[0].at("pid").as_number() > 0);
        CHECK_FALSE(
            children[0].at("exited").as_bool());  // the fixture kills it only at the next iteration
        bool said = false;
        for (const Json& why : coverage->at("missedWhy").as_array())
            said = said || (contains(why.as_string(), "had not waited for when the passes ended") &&
                            contains(why.as_string(), "with or without --perf-inherit") &&
                            contains(why.as_string(), "within the case"));
        CHECK(said);
        const std::string line = glint::test::unwrapped(r.result.out);
        CHECK(contains(line,
                       fmt::format(" not waited for: {:.0f} ", children[0].at("pid").as_number())));
    }
}

// The row's threadCoverage.escaped entry for the fixture's pool thread (named before main).
const Json* pool_thread(const Json& coverage) {
    for (const Json& t : coverage.at("escaped").as_array())
        if (t.at("name").as_string() == "fixture-pool") return &t;
    return nullptr;
}

// A thread started before main (fixture "pool") does the body's work: the row names it by tid
// and name, as existing before the counters opened, with --perf-inherit as the remedy.
TEST_CASE(
    "e2e threads: a thread that existed before the counters opened is named as escaped without "
    "--perf-inherit") {
    // Passes of ~50 ms: the pool's thread gets a CPU in them, however loaded the machine.
    const Run r = run_json(
        {"--bench", "--bench-min-time=0.05", "--perf", "--perf-iters=2000000", "--filter=pool"},
        "threads_pool");
    INFO(r.result.out, r.result.err);
    REQUIRE(r.result.exit_code == 0);
    const Json* coverage = r.doc.at("rows").as_array().at(0).find("threadCoverage");
    REQUIRE(coverage);
    CHECK(coverage->at("otherCpuNs").as_number() > 2e5);
    CHECK(coverage->at("missed").is_null());
    CHECK_FALSE(coverage->find("preExisting"));
    const Json* pool = pool_thread(*coverage);
    REQUIRE(pool);
    CHECK(pool->at("tid").as_number() > 0);
    CHECK(pool->at("cpuNs").as_number() > 0);
    CHECK(pool->at("existedBefore").as_bool());
    const std::string reason = coverage->at("missedWhy").as_array().at(0).as_string();
    const std::string line = glint::test::unwrapped(r.result.out);
    // The pool's thread first among those that existed before (it ran the most).
    CHECK(contains(line,
                   fmt::format(" escaped: {:.0f} fixture-pool (", pool->at("tid").as_number())));
    CHECK(contains(line,
                   "existed before the counters opened: --perf-inherit counts it (a group on each "
                   "in the perf, raw:, "
                   "pfm: and syscall tiers"));
    CHECK(reason.find("other threads of the process ran") == 0);
}

// Under --perf-inherit the perf tier opens a group on that thread too (read around each pass):
// the row's task-clock holds the pool's CPU time beside the measuring thread's, and the row and
// the line under the table say it was counted.
TEST_CASE(
    "e2e threads: under --perf-inherit a thread that existed before the counters opened is "
    "counted") {
    const Run r = run_json({"--bench", "--bench-min-time=0.05", "--perf", "--perf-inherit",
                            "--perf-iters=2000000", "--filter=pool"},
                           "threads_pool_inherit");
    INFO(r.result.out, r.result.err);
    REQUIRE(r.result.exit_code == 0);
    const Json& row = r.doc.at("rows").as_array().at(0);
    const Json* coverage = row.find("threadCoverage");
    REQUIRE(coverage);
    const Json* pool = nullptr;
    for (const Json& t : coverage->at("preExisting").as_array())
        if (t.at("name").as_string() == "fixture-pool") pool = &t;
    REQUIRE(pool);
    CHECK(pool_thread(*coverage) == nullptr);  // counted: not among those that escaped
    CHECK(coverage->at("preExistingMissed").as_array().empty());
    const auto counted = static_cast<std::size_t>(coverage->at("counted").as_number());
    CHECK(counted == 1 + coverage->at("preExisting").as_array().size());
    CHECK(coverage->at("missed").as_number() == 0);
    const double pool_ns = coverage->at("countedCpuNs").as_number();
    CHECK(pool_ns > 2e5);
    CHECK(contains(glint::test::unwrapped(r.result.out),
                   fmt::format("threads: pool: {} of {} counted, 0 missed · ", counted, counted)));
    CHECK(contains(
        glint::test::unwrapped(r.result.out),
        fmt::format("existed before the counters opened counted (read(2) around each pass): {:.0f} "
                    "fixture-pool",
                    pool->at("tid").as_number())));
    // Lower bounds only: the cell holds the measuring thread's own task-clock (its brackets'
    // median) and at least half the pool's CPU time over the pass's iterations.
    const double task_clock = row.at("metrics").at("task-clock").as_number();
    const double mine = row.at("countSpread")
                            .at("perf")
                            .at("perIteration")
                            .at("task-clock")
                            .at("median")
                            .as_number();
    const double iterations = row.at("countIterations").as_number();
    CHECK(task_clock > mine + 0.5 * pool_ns / iterations);
}

// A pool thread the body starts on its first run (fixture "lazy-pool": after the counters
// opened, by the measuring thread) and keeps: named as escaped, with --perf-inherit as the
// remedy; under it the row is counted whole (no coverage: inherit reads the live thread too).
TEST_CASE(
    "e2e threads: a thread the body started and kept is named with --perf-inherit as its remedy") {
    const std::vector<std::string> args{"--bench", "--bench-min-time=0.05", "--perf",
                                        "--perf-iters=2000000", "--filter=lazy-pool"};
    const Run plain = run_json(args, "threads_lazy");
    INFO(plain.result.out, plain.result.err);
    REQUIRE(plain.result.exit_code == 0);
    const Json* coverage = plain.doc.at("rows").as_array().at(0).find("threadCoverage");
    REQUIRE(coverage);
    const Json* lazy = nullptr;
    for (const Json& t : coverage->at("escaped").as_array())
        if (t.at("name").as_string() == "fixture-lazy") lazy = &t;
    REQUIRE(lazy);
    CHECK_FALSE(lazy->at("existedBefore").as_bool());
    CHECK(lazy->at("cpuNs").as_number() > 0);
    CHECK(contains(glint::test::unwrapped(plain.result.out),
                   fmt::format(" escaped: {:.0f} fixture-lazy (", lazy->at("tid").as_number())));
    CHECK(contains(glint::test::unwrapped(plain.result.out), "count it with --perf-inherit"));
    std::vector<std::string> inherit_args = args;
    inherit_args.push_back("--perf-inherit");
    const Run inherited = run_json(inherit_args, "threads_lazy_inherit");
    INFO(inherited.result.out);
    REQUIRE(inherited.result.exit_code == 0);
    CHECK_FALSE(inherited.doc.at("rows").as_array().at(0).find("threadCoverage"));
}

// Threads the body starts and joins within the passes (fixture "spawns") have ended when the
// passes do: not named (the fixture's idle pool thread may be, for its wake-ups), and the
// reason says where their time went.
TEST_CASE("e2e threads: threads that ended within the passes are not named, and the row says why") {
    const Run r = run_json({"--bench", "--bench-min-time=0.05", "--perf", "--filter=spawns"},
                           "threads_spawns_named");
    INFO(r.result.out, r.result.err);
    REQUIRE(r.result.exit_code == 0);
    const Json* coverage = r.doc.at("rows").as_array().at(0).find("threadCoverage");
    REQUIRE(coverage);
    double named = 0;
    for (const Json& t : coverage->at("escaped").as_array()) named += t.at("cpuNs").as_number();
    CHECK(named < 0.5 * coverage->at("otherCpuNs").as_number());
    bool said = false;
    for (const Json& why : coverage->at("missedWhy").as_array())
        said =
            said || contains(why.as_string(), "by threads that ended within the passes (not named");
    CHECK(said);
}

TEST_CASE(
    "e2e threads: glint-compare pairs multi-threaded rows by their threads label and judges each") {
    glint::test::TempDir dir("threads");
    const std::string base = dir.file("base.json"), next = dir.file("new.json");
    for (const std::string& path : {base, next}) {
        const auto r =
            run_process({fixture_path("threads"), "--bench", "--bench-min-time=0.05",
                         "--bench-repeat=2", "--filter=independent", "--bench-json=" + path});
        REQUIRE(r.exit_code == 0);
    }
    const auto compared = run_process({glint::test::compare_path(), base, next});
    INFO(compared.out << compared.err);
    CHECK(compared.exit_code == 0);
    CHECK(contains(compared.out, "independent [threads=1]"));
    CHECK(contains(compared.out, "independent [threads=2]"));
    CHECK_FALSE(contains(compared.out, "only in base"));
    CHECK_FALSE(contains(compared.out, "no row compared"));
}
