// Under --perf-inherit, the threads alive when the counters opened (engine/tiers/
// preexisting_threads.hpp): what one group's counts between two reads add, and how the other
// threads' per-iteration cells join the measuring thread's.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/runner/bench/case_measure.hpp"
#include "engine/tiers/escaped_work.hpp"
#include "engine/tiers/preexisting_threads.hpp"
#include "support/thread_coverage.hpp"

using namespace glint::engine;
using glint::catalog::Format;
using glint::catalog::MetricCell;

namespace {

glint::os::GroupDelta delta(std::uint64_t enabled, std::uint64_t running,
                            std::vector<std::uint64_t> counts) {
    glint::os::GroupDelta d;
    d.ok = true;
    d.enabled = enabled;
    d.running = running;
    d.size = counts.size();
    for (std::size_t i = 0; i < counts.size(); ++i) d.counts[i] = counts[i];
    return d;
}

MetricCell cell(const char* name, Format format, double value, bool estimated = false) {
    MetricCell c;
    c.name = name;
    c.format = format;
    c.value = value;
    c.estimated = estimated;
    return c;
}

Json thread(long tid, const char* name) {
    Json t = Json::object();
    t["tid"] = tid;
    t["name"] = std::string(name);
    return t;
}

Json missed(long tid, const char* name, const char* why, const char* tier) {
    Json t = thread(tid, name);
    t["why"] = std::string(why);
    t["tiers"] = Json::array();
    t["tiers"].push_back(std::string(tier));
    return t;
}

// One tier's PreexistingThreads::coverage(): `counted` and `lost` (missed entries).
Json part(std::vector<Json> counted, std::vector<Json> lost) {
    Json p = Json::object();
    p["preExisting"] = Json::array();
    p["preExistingMissed"] = Json::array();
    for (auto& t : counted) p["preExisting"].push_back(std::move(t));
    for (auto& t : lost) p["preExistingMissed"].push_back(std::move(t));
    return p;
}

}  // namespace

TEST_CASE("pre-existing threads: a group's counts between two reads, scaled when multiplexed") {
    const OtherCounts exact = other_counts(delta(1000, 1000, {500, 7}));
    CHECK(exact.ok);
    CHECK_FALSE(exact.estimated);
    CHECK(exact.size == 2);
    CHECK(exact.values[0] == 500);
    CHECK(exact.values[1] == 7);
    // On the PMU a quarter of the time its thread ran: scaled by enabled/running, an estimate.
    const OtherCounts rotated = other_counts(delta(4000, 1000, {500, 7}));
    CHECK(rotated.ok);
    CHECK(rotated.estimated);
    CHECK(rotated.values[0] == 2000);
    CHECK(rotated.values[1] == 28);
    // A thread that did not run adds 0, exactly; one that ran but never got the PMU: not measured.
    const OtherCounts idle = other_counts(delta(0, 0, {0, 0}));
    CHECK(idle.ok);
    CHECK_FALSE(idle.estimated);
    CHECK(idle.values[0] == 0);
    CHECK_FALSE(other_counts(delta(1000, 0, {0, 0})).ok);
    glint::os::GroupDelta failed = delta(1000, 1000, {1, 2});
    failed.ok = false;
    CHECK_FALSE(other_counts(failed).ok);
}

TEST_CASE(
    "pre-existing threads: count and time cells add theirs, ratio cells stay only when they "
    "counted nothing") {
    const std::vector<MetricCell> mine{
        cell("cycles", Format::count, 100), cell("task-clock", Format::nanoseconds, 25),
        cell("ipc", Format::ratio, 1.5), cell("branch-miss", Format::percent, 2)};
    const std::vector<MetricCell> busy{
        cell("cycles", Format::count, 60, true), cell("task-clock", Format::nanoseconds, 20, true),
        cell("ipc", Format::ratio, 3), cell("branch-miss", Format::percent, 9)};
    const auto added = add_other_threads(mine, busy);
    REQUIRE(added.size() == 4);
    CHECK(added[0].value == 160);
    CHECK(added[0].estimated);  // multiplexed on their side: the sum is an estimate
    CHECK(added[1].value == 45);
    CHECK(added[1].estimated);
    CHECK(std::isnan(added[2].value));  // not the ratio of the cells shown: —
    CHECK(std::isnan(added[3].value));
    CHECK_FALSE(added[2].estimated);
    // They counted nothing in the pass: every cell is the measuring thread's, exact.
    const std::vector<MetricCell> idle{cell("cycles", Format::count, 0),
                                       cell("task-clock", Format::nanoseconds, 0),
                                       cell("ipc", Format::ratio, std::nan("")),
                                       cell("branch-miss", Format::percent, std::nan(""))};
    const auto same = add_other_threads(mine, idle);
    CHECK(same[0].value == 100);
    CHECK_FALSE(same[0].estimated);
    CHECK(same[1].value == 25);
    CHECK(same[2].value == 1.5);
    CHECK(same[3].value == 2);
    // Not measured on their side (a group not read): the sums are not measured either.
    std::vector<MetricCell> unread = idle;
    unread[0].value = unread[1].value = std::nan("");
    const auto lost = add_other_threads(mine, unread);
    CHECK(std::isnan(lost[0].value));
    CHECK(std::isnan(lost[1].value));
    CHECK_FALSE(lost[0].estimated);
}

TEST_CASE("pre-existing threads: the line under the table says which were counted, and how") {
    Row row;
    Json coverage = glint::test::thread_coverage(3, Json(0ul));
    Json pre = Json::array();
    for (long tid : {4711l, 4712l}) {
        Json t = Json::object();
        t["tid"] = tid;
        t["name"] = std::string("pool");
        pre.push_back(t);
    }
    coverage["preExisting"] = pre;
    row.extra_fields["threadCoverage"] = coverage;
    const auto line = CaseMeasurer::coverage_line(row, "case");
    REQUIRE(line);
    CHECK(*line ==
          "threads: case: 3 of 3 counted, 0 missed · 2 threads that existed before the counters "
          "opened "
          "counted (read(2) around each pass): 4711 pool, 4712 pool");
}

TEST_CASE("pre-existing threads: one whose group could not open is missed, with the reason") {
    const ThreadsAtOpen at_open{true, {}};
    const EscapedWork work(at_open, true);
    Json pre = Json::object();
    pre["preExisting"] = Json::array();
    Json gone = Json::object();
    gone["tid"] = 77l;
    gone["name"] = std::string("gone");
    gone["why"] = std::string("it exited before its counters could open");
    pre["preExistingMissed"] = Json::array();
    pre["preExistingMissed"].push_back(gone);
    const Json coverage = work.coverage(pre);
    REQUIRE(coverage.is_object());
    CHECK(coverage.at("threads").as_number() == 2);
    CHECK(coverage.at("counted").as_number() == 1);
    CHECK(coverage.at("missed").as_number() == 1);
    CHECK(coverage.at("missedWhy").as_array().at(0).as_string() ==
          "thread 77 gone existed before the counters opened and is not in its counts: it exited "
          "before its "
          "counters could open");
    // Nothing of the kind and nothing escaped: no coverage, as before.
    pre["preExistingMissed"] = Json::array();
    CHECK(work.coverage(pre).is_null());
}

TEST_CASE(
    "pre-existing threads: one that escaped though the groups were opened is named without a "
    "remedy") {
    Row row;
    Json coverage = glint::test::thread_coverage();
    coverage["preExisting"] = Json::array();
    coverage["escaped"].push_back(glint::test::escaped_thread(4711, "pool", 1.25e6, Json(true)));
    row.extra_fields["threadCoverage"] = coverage;
    const auto line = CaseMeasurer::coverage_line(row, "case");
    REQUIRE(line);
    CHECK(line->find(" · 1 thread escaped: 4711 pool (1.25 ms): it existed before the counters "
                     "opened and was not "
                     "counted") != std::string::npos);
    CHECK(line->find("--perf-inherit") == std::string::npos);
}

TEST_CASE(
    "pre-existing threads: the other threads' figures, group order, join an event counter's "
    "columns") {
    glint::engine::counting::PerIteration per;
    per.size = 2;
    per.values[0] = 10;
    per.values[1] = 20;
    // Spec 0 is member 1, spec 1 was refused, spec 2 is member 0, spec 3 names a member not read.
    const auto theirs = in_spec_order(per, {1, -1, 0, 5});
    REQUIRE(theirs.size() == 4);
    CHECK(theirs[0] == 20);
    CHECK(std::isnan(theirs[1]));
    CHECK(theirs[2] == 10);
    CHECK(std::isnan(theirs[3]));
    CHECK(in_spec_order(glint::engine::counting::PerIteration{}, {0}).size() == 1);
}

TEST_CASE(
    "pre-existing threads: two tiers' coverage is one list, a thread one tier missed is missed") {
    // perf counted both threads, raw: could not open on 12.
    const Json perf = part({thread(11, "pool"), thread(12, "io")}, {});
    const Json raw = part({thread(11, "pool")},
                          {missed(12, "io", "its counters could not open: EACCES", "raw")});
    const Json merged = merge_coverage(perf, raw);
    REQUIRE(merged.at("preExisting").as_array().size() == 1);
    CHECK(merged.at("preExisting").as_array()[0].at("tid").as_number() == 11);
    REQUIRE(merged.at("preExistingMissed").as_array().size() == 1);
    const Json& io = merged.at("preExistingMissed").as_array()[0];
    CHECK(io.at("tid").as_number() == 12);
    CHECK(io.at("name").as_string() == "io");
    CHECK(io.at("why").as_string() == "its counters could not open: EACCES");
    REQUIRE(io.at("tiers").as_array().size() == 1);
    CHECK(io.at("tiers").as_array()[0].as_string() == "raw");
    // Missed by two tiers: both named; each reason once, with its tiers when they differ.
    const Json pfm =
        part({}, {missed(11, "pool", "it exited before its counters could open", "pfm"),
                  missed(12, "io", "it exited before its counters could open", "pfm")});
    const Json three = merge_coverage(merged, pfm);
    CHECK(three.at("preExisting").as_array().empty());
    const auto& lost = three.at("preExistingMissed").as_array();
    REQUIRE(lost.size() == 2);
    CHECK(lost[0].at("tid").as_number() == 11);
    CHECK(lost[0].at("why").as_string() == "it exited before its counters could open");
    CHECK(
        lost[1].at("why").as_string() ==
        "raw: its counters could not open: EACCES; pfm: it exited before its counters could open");
    REQUIRE(lost[1].at("tiers").as_array().size() == 2);
    CHECK(lost[1].at("tiers").as_array()[1].as_string() == "pfm");
    const Json agreed = merge_coverage(part({}, {missed(12, "io", "gone", "raw")}),
                                       part({}, {missed(12, "io", "gone", "pfm")}));
    CHECK(agreed.at("preExistingMissed").as_array()[0].at("why").as_string() == "gone");
    // A tier that listed none leaves the other's as it was.
    CHECK(merge_coverage(Json(), raw) == raw);
    CHECK(merge_coverage(perf, Json()) == perf);
    CHECK(merge_coverage(Json(), Json()).is_null());
}

TEST_CASE(
    "pre-existing threads: a thread missed in some tiers' columns names them in the row's reason") {
    const ThreadsAtOpen at_open{true, {}};
    const EscapedWork work(at_open, true);
    const Json both = merge_coverage(
        part({thread(11, "pool")}, {}),
        part({}, {missed(11, "pool", "its counters could not open: EACCES", "raw")}));
    const Json coverage = work.coverage(both);
    REQUIRE(coverage.is_object());
    CHECK(coverage.at("threads").as_number() == 2);
    CHECK(coverage.at("counted").as_number() ==
          1);  // counted: by every tier that counts such threads
    CHECK(coverage.at("missed").as_number() == 1);
    CHECK(coverage.at("missedWhy").as_array().at(0).as_string() ==
          "thread 11 pool existed before the counters opened and is not in its raw: counts: its "
          "counters could "
          "not open: EACCES");
    Json two = both;
    two["preExistingMissed"].as_array()[0]["tiers"].push_back(std::string("perf"));
    CHECK(work.coverage(two)
              .at("missedWhy")
              .as_array()
              .at(0)
              .as_string()
              .find("is not in its raw: and --perf counts") != std::string::npos);
}
