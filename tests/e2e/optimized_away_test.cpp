// End to end: a body the compiler deleted is an error row naming the fix, never a measurement
// (timing/protocol.hpp has the rule); real fast bodies next to it are measured.
#include <doctest/doctest.h>

#include <cstdio>
#include <map>
#include <string>

#include "engine/model/json.hpp"
#include "support/process.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;

TEST_CASE("e2e: a deleted iter, whole body or iter_batched fn is an error row saying it was optimized away") {
    const std::string json = glint::test::temp_json_path("optimized_away");
    const auto r = run_process({fixture_path("optimized_away"), "--bench", "--bench-min-time=1",
                                "--bench-json=" + json});
    CHECK(r.exit_code == 1);  // error rows fail the run; every row is still written
    const Json doc = Json::parse(read_file(json));
    std::remove(json.c_str());
    std::map<std::string, std::string> error_of;  // name -> error ("" for a measured row)
    for (const auto& row : doc.at("rows").as_array()) {
        const Json* error = row.find("error");
        error_of[row.at("name").as_string()] = error ? error->as_string() : "";
        // A measured row's CPU/wall ratio is one thread's: never above 1.
        if (!error && row.at("cpuWallRatio").is_number()) CHECK(row.at("cpuWallRatio").as_number() <= 1.0);
    }
    for (const std::string deleted : {"empty", "whole_empty", "batched_empty"}) {
        CAPTURE(deleted);
        CHECK(contains(error_of[deleted], "optimized away"));
        CHECK(contains(error_of[deleted], "glint::black_box"));
        CHECK(contains(r.err, std::string("glint: ") + deleted + ": optimized away"));
    }
    for (const std::string real : {"add_chain", "batched_fast", "call_empty", "call_add"}) {
        CAPTURE(real);
        REQUIRE(error_of.count(real) == 1);
        CHECK(error_of[real] == "");
    }
    CHECK(contains(r.out, "optimized away"));  // the table's error rows
}
