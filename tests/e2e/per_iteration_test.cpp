// End to end: --per-iteration through the fixture's command line. Where reads make no system
// call it adds the p50/p99 columns and --histogram prints the distribution after the tables;
// elsewhere (these VMs: no PMU) it refuses with the reason: a stderr note, no columns, exit 0,
// the refusal in JSON meta.statuses.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "engine/model/json.hpp"
#include "support/process.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;

namespace {

const Json* per_iteration_status(const Json& doc) {
    for (const auto& s : doc.at("meta").at("statuses").as_array())
        if (s.at("capability").as_string() == "per-iteration") return &s;
    return nullptr;
}

}  // namespace

TEST_CASE("e2e: --per-iteration adds distribution columns, or refuses with the reason") {
    const std::string json = glint::test::temp_json_path("per_iteration");
    auto r = run_process({fixture_path("basic"), "--bench", "--bench-min-time=0.05",
                          "--filter=add_chain", "--histogram=add*", "--bench-json=" + json});
    CHECK(r.exit_code == 0);
    const Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    const Json* status = per_iteration_status(doc);
    REQUIRE(status != nullptr);
    const Json* row = nullptr;
    for (const auto& candidate : doc.at("rows").as_array())
        if (candidate.at("name").as_string() == "add_chain") row = &candidate;
    REQUIRE(row != nullptr);
    if (status->at("state").as_string() == "unavailable") {
        const std::string reason = status->at("reason").as_string();
        CHECK(!reason.empty());
        CHECK(contains(glint::test::unwrapped(r.err), "glint: note: per-iteration: " + reason));
        CHECK_FALSE(contains(r.out, "cycles p50"));
        CHECK_FALSE(row->at("metrics").contains("cycles-p50"));
        CHECK_FALSE(contains(r.out, "add_chain: cycles per call"));
        MESSAGE("--per-iteration refused here: " << reason);
    } else {
        CHECK(status->at("state").as_string() == "available");
        CHECK(contains(r.out, "cycles p50"));
        CHECK(contains(r.out, "instr p99"));
        CHECK(row->at("metrics").contains("instr-p50"));
        CHECK(contains(r.out, "add_chain: cycles per call"));
        CHECK(
            doc.at("meta").at("tiers").at("per-iteration").at("histograms").contains("add_chain"));
    }
}
