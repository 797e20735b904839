// End to end: --bench-repeat under --isolate (each repetition of each case in a child of its
// own; the parent merges them) and with --bench-json's journal.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "support/process.hpp"

using glint::engine::Json;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;

TEST_CASE("e2e: --bench-repeat under --isolate merges every child's repetition into one row") {
    const std::string json = "/tmp/glint_e2e_repeat_isolate_" + std::to_string(getpid()) + ".json";
    auto r = run_process({fixture_path("ab"), "--bench", "--isolate", "--bench-repeat=3", "--bench-min-time=1",
                          "--bench-json=" + json});
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
        std::vector<double> m{medians[0].as_number(), medians[1].as_number(), medians[2].as_number()};
        std::sort(m.begin(), m.end());
        CHECK(row.at("medianNs").as_number() == doctest::Approx(m[1]).epsilon(1e-5));
    }
    // The two registrations' "impl" rows keep their registrations across the child boundary.
    std::vector<std::string> impl;
    for (const auto& row : rows)
        if (row.at("name").as_string() == "impl") impl.push_back(row.at("registration").as_string());
    std::sort(impl.begin(), impl.end());
    CHECK(impl == std::vector<std::string>{"fast", "slow"});
}
