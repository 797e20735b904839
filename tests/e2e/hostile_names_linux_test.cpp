// End to end, Linux-only paths of the hostile fixture (hostile_names_test.cpp has the rest):
// the stale-journal scan beside a --bench-json target and --isolate's children.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "engine/model/json.hpp"
#include "hostile_checks.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::hostile::bench;
using glint::test::hostile::check_terminal;

TEST_CASE("e2e: a planted journal's file name reaches stderr as visible text") {
    glint::test::TempDir dir("glint_e2e_hostile");
    std::FILE* planted = std::fopen(dir.file("run.json.journal.\x1b[2J\x07x").c_str(), "w");
    REQUIRE(planted);
    std::fclose(planted);
    auto run = run_process(bench({"--bench-json=" + dir.file("run.json")}));
    CHECK(run.exit_code == 1);
    check_terminal(run.err, "the stale-journal note");
    CHECK(contains(run.err, "run.json.journal.\xE2\x90\x9B[2J\xE2\x90\x87x"));
}

TEST_CASE(
    "e2e: under --isolate a case or registration named in invalid UTF-8 is found again in its "
    "child") {
    glint::test::TempDir dir("glint_e2e_hostile");
    auto run = run_process(bench({"--isolate", "--bench-json=" + dir.file("run.json")}));
    CHECK(run.exit_code == 1);  // the failing case only
    const Json doc = Json::parse(read_file(dir.file("run.json")));
    std::size_t checked = 0;
    for (const auto& r : doc.at("rows").as_array()) {
        const std::string name = r.at("name").as_string();
        if (name != "bad\xEF\xBF\xBD\xEF\xBF\xBDutf8" && name != "inner") continue;
        INFO(name);
        CHECK(r.find("error") == nullptr);
        CHECK(r.at("registration").as_string() != "");
        ++checked;
    }
    CHECK(checked == 2);
    auto plain = run_process({fixture_path("hostile"), "--isolate"});
    CHECK(contains(plain.out, "ok    hostile\xE2\x90\x9B[31m<!--/bad\xEF\xBF\xBD\xEF\xBF\xBDutf8"));
    CHECK(contains(plain.out, "ok    registration\xEF\xBF\xBD/inner"));
}
