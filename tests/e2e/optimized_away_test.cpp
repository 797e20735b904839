// End to end: a body the compiler deleted is an error row naming the fix, never a measurement
// (timing/protocol.hpp has the rule); real fast bodies next to it are measured.
#include <doctest/doctest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "support/process.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;

namespace {
struct Outcome {
    glint::test::ProcessResult process;
    std::map<std::string, std::string> error_of;  // name -> error ("" for a measured row)
};

Outcome run_fixture(const std::string& filter) {
    const std::string json = glint::test::temp_json_path("optimized_away");
    std::vector<std::string> args{fixture_path("optimized_away"), "--bench",
                                  "--bench-min-time=0.05", "--bench-json=" + json};
    if (!filter.empty()) args.push_back("--filter=" + filter);
    Outcome o{run_process(args), {}};
    const Json doc = Json::parse(read_file(json));
    std::remove(json.c_str());
    for (const auto& row : doc.at("rows").as_array()) {
        const Json* error = row.find("error");
        o.error_of[row.at("name").as_string()] = error ? error->as_string() : "";
        // A measured row's CPU/wall ratio is one thread's: never above 1.
        if (!error && row.at("cpuWallRatio").is_number())
            CHECK(row.at("cpuWallRatio").as_number() <= 1.0);
    }
    return o;
}
}  // namespace

TEST_CASE(
    "e2e: a deleted iter, whole body or iter_batched fn is an error row saying it was optimized "
    "away") {
    const Outcome first = run_fixture("");
    const auto& r = first.process;
    CHECK(r.exit_code == 1);  // error rows fail the run; every row is still written
    auto error_of = first.error_of;
    // A deleted fn is probed only when its samples suspect it (timing/protocol.cpp): on a
    // loaded machine disturbed samples can read past the suspicion bound and the row is
    // measured, not judged. Up to two more runs of that case alone; a detector that never
    // fires fails all three.
    std::string batched_err = r.err;
    for (int again = 0; again < 2 && !contains(error_of["batched_empty"], "optimized away");
         ++again) {
        const Outcome retry = run_fixture("batched_empty");
        error_of["batched_empty"] =
            retry.error_of.count("batched_empty") ? retry.error_of.at("batched_empty") : "";
        batched_err = retry.process.err;
    }
    for (const std::string deleted : {"empty", "whole_empty", "batched_empty"}) {
        CAPTURE(deleted);
        CAPTURE(error_of[deleted]);
        CHECK(contains(error_of[deleted], "optimized away"));
        CHECK(contains(error_of[deleted], "glint::black_box"));
        CHECK(contains(deleted == "batched_empty" ? batched_err : r.err,
                       std::string("glint: ") + deleted + ": optimized away"));
    }
    for (const std::string real : {"add_chain", "batched_fast", "call_empty", "call_add"}) {
        CAPTURE(real);
        REQUIRE(first.error_of.count(real) == 1);
        CHECK(first.error_of.at(real) == "");
    }
    CHECK(contains(r.out, "optimized away"));  // the table's error rows
}

TEST_CASE("e2e: test mode (no --bench) fails an iter the compiler deleted, passes the real ones") {
    const auto r = run_process({fixture_path("optimized_away")});
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out,
                   "FAIL  empty: optimized away: the compiler deleted the body (pass its "
                   "inputs and result through glint::black_box)"));
    for (const std::string real :
         {"add_chain", "batched_fast", "calls/call_empty", "calls/call_add"}) {
        CAPTURE(real);
        CHECK(contains(r.out, "ok    " + real + "\n"));
    }
    // Not probed in test mode: a whole body runs as itself, an iter_batched fn with its input.
    CHECK(contains(r.out, "ok    whole_empty\n"));
    CHECK(contains(r.out, "ok    batched_empty\n"));
}
