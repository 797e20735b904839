// End to end: glint::iter_batched (fixture batched_linux.cpp, which maps pages with mmap). Each
// case's setup is far more expensive than its measured call, so setup leaking into the timed
// windows or into a counting bracket shows by orders of magnitude: 20 us of spinning, 64 fresh page
// faults per input.
#include <doctest/doctest.h>

#include <cstdio>

#include <string>

#include "engine/model/json.hpp"
#include "support/process.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;

namespace {

const Json& row_named(const Json& doc, const std::string& name) {
    for (const auto& row : doc.at("rows").as_array())
        if (row.at("name").as_string() == name) return row;
    FAIL("no row " << name);
    return doc;
}

}  // namespace

TEST_CASE("e2e batched: without --bench each iter_batched case builds one input and runs once") {
    auto r = run_process({fixture_path("batched_linux")});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("3 passed, 0 failed") != std::string::npos);
}

TEST_CASE("e2e batched: setup stays out of the timed median and of every counting pass") {
    const std::string json = glint::test::temp_json_path("batched");
    auto r = run_process({fixture_path("batched_linux"), "--bench", "--bench-min-time=0.05",
                          "--metrics=minflt,page-faults,task-clock", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());

    const Json& spins = row_named(doc, "setup_spins");
    CHECK(spins.at("medianNs").as_number() < 2000);  // 20000 ns of setup per iteration
    const Json& faults = row_named(doc, "setup_faults");
    CHECK(faults.at("metrics").at("minflt").as_number() < 8);  // 64 faults of setup per input
    // The software perf group (task-clock, page-faults) opens on most Linux hosts; where it
    // cannot, its cells are null and tier 0 alone carries the check.
    const Json& pf = faults.at("metrics").at("page-faults");
    if (!pf.is_null()) CHECK(pf.as_number() < 8);
    const Json& tc = spins.at("metrics").at("task-clock");
    if (!tc.is_null()) CHECK(tc.as_number() < 10000);  // ns of task-clock per iteration
}

TEST_CASE("e2e batched: --profile samples iter_batched cases in their windows of built inputs") {
    // Before the sampling pass built each window's inputs, its first call ran with none and
    // the binary aborted.
    auto r = run_process({fixture_path("batched_linux"), "--bench", "--bench-min-time=0.2",
                          "--filter=setup_spins,sort_fresh", "--profile", "--profile-time=100"});
    CHECK(r.exit_code == 0);
    CHECK_FALSE(contains(r.err, "internal error"));
    CHECK(contains(r.out, "profile setup_spins: "));
    CHECK(contains(r.out, "profile sort_fresh: "));
}
