// End to end: --bench-repeat under --isolate (each repetition of each case in a child of its
// own; the parent merges them), with --bench-json's journal, and with iter_batched cases.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "support/process.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;

TEST_CASE("e2e: --bench-repeat under --isolate merges every child's repetition into one row") {
    const std::string json = glint::test::temp_json_path("repeat_isolate");
    auto r = run_process({fixture_path("ab"), "--bench", "--isolate", "--bench-repeat=3",
                          "--bench-min-time=0.05", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("│ steady") == r.out.rfind("│ steady"));  // the table shows each row once
    const Json doc = Json::parse(read_file(json));
    std::remove(json.c_str());
    const auto& rows = doc.at("rows").as_array();
    CHECK(rows.size() == 4);
    for (const auto& row : rows) {
        CAPTURE(row.at("name").as_string());
        CHECK_FALSE(row.contains("error"));
        CHECK(row.at("registration").is_string());
        const auto& medians = row.at("repetitionMediansNs").as_array();
        REQUIRE(medians.size() == 3);
        std::vector<double> m{medians[0].as_number(), medians[1].as_number(),
                              medians[2].as_number()};
        std::sort(m.begin(), m.end());
        CHECK(row.at("medianNs").as_number() == doctest::Approx(m[1]).epsilon(1e-5));
    }
    // The two registrations' "impl" rows keep their registrations across the child boundary.
    std::vector<std::string> impl;
    for (const auto& row : rows)
        if (row.at("name").as_string() == "impl")
            impl.push_back(row.at("registration").as_string());
    std::sort(impl.begin(), impl.end());
    CHECK(impl == std::vector<std::string>{"fast", "slow"});
}

namespace {

// The rows of a --bench-json document, checked as each combination of --bench-repeat with
// iter_batched must leave them: every expected row, none an error, `repetitions` medians each.
void check_repeated_rows(const std::string& json, const std::vector<std::string>& names,
                         std::size_t repetitions) {
    const Json doc = Json::parse(read_file(json));
    std::remove(json.c_str());
    const auto& rows = doc.at("rows").as_array();
    std::vector<std::string> seen;
    for (const auto& row : rows) {
        const std::string name = row.at("name").as_string();
        CAPTURE(name);
        seen.push_back(name);
        CHECK_FALSE(row.contains("error"));
        REQUIRE(row.contains("repetitionMediansNs"));
        CHECK(row.at("repetitionMediansNs").as_array().size() == repetitions);
        CHECK(row.at("medianNs").as_number() > 0);
    }
    std::sort(seen.begin(), seen.end());
    std::vector<std::string> expected = names;
    std::sort(expected.begin(), expected.end());
    CHECK(seen == expected);
}

}  // namespace

// Repetitions after the first pin a batched case's iterations and run one untimed warm-up
// sample first: before that sample built its windows of inputs, every iter_batched case
// aborted ("iter_batched window of N iterations run with 0 inputs prepared").
TEST_CASE(
    "e2e: --bench-repeat=2 and 3 measure every iter_batched case, alone and under --isolate") {
    const std::vector<std::string> names{"setup_faults", "sort_fresh"};
    for (const char* repeat : {"2", "3"}) {
        for (const bool isolate : {false, true}) {
            CAPTURE(repeat);
            CAPTURE(isolate);
            const std::string json = glint::test::temp_json_path("repeat_batched");
            std::vector<std::string> argv{
                fixture_path("batched_linux"),           "--bench",
                std::string("--bench-repeat=") + repeat, "--bench-min-time=0.05",
                "--filter=setup_faults,sort_fresh",      "--bench-json=" + json};
            if (isolate) argv.push_back("--isolate");
            const auto r = run_process(argv);
            CHECK_FALSE(contains(r.err, "internal error"));
            CHECK(r.term_signal == 0);
            REQUIRE(r.exit_code == 0);
            check_repeated_rows(json, names, std::stoul(repeat));
        }
    }
}

TEST_CASE("e2e: --bench-repeat=2 runs a user's program of iter_batched and iter cases to the end") {
    const std::string json = glint::test::temp_json_path("repeat_user");
    const auto r = run_process({fixture_path("user_batched"), "--bench", "--bench-repeat=2",
                                "--bench-min-time=0.05", "--bench-json=" + json});
    CHECK_FALSE(contains(r.err, "internal error"));
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "│ sort"));
    check_repeated_rows(json, {"sort", "parse_small", "add_chain"}, 2);
}
