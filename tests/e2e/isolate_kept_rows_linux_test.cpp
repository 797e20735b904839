// End to end: --isolate keeps the rows a child finished before it died (isolation.hpp's
// promise). A child that measures two glint::iter rows and dies in the second must leave the
// first in the JSON and in the table, and the crash as an error row; a runner that held a
// child's rows until it ended cleanly would drop the measured one.
#include <doctest/doctest.h>

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

TEST_CASE("e2e isolate: a body's finished iter row is kept when its next iter kills the child") {
    const std::string json = glint::test::temp_json_path("isolate_kept_rows");
    const auto r = run_process({fixture_path("crash_second_iter"), "--bench", "--isolate",
                                "--bench-min-time=0.1", "--bench-json=" + json},
                               {"ASAN_OPTIONS=handle_abort=0"});
    CHECK(r.exit_code == 1);  // a case failed; the run went on
    const Json doc = Json::parse(read_file(json));
    std::remove(json.c_str());
    std::vector<std::string> names, errors;
    for (const auto& row : doc.at("rows").as_array()) {
        names.push_back(row.at("name").as_string());
        const Json* error = row.find("error");
        errors.push_back(error ? error->as_string() : "");
        if (!error) CHECK(row.at("medianNs").as_number() > 0);  // measured, whole
    }
    CHECK(names == std::vector<std::string>{"first_then_crash", "first_then_crash#2", "after"});
    CHECK(errors == std::vector<std::string>{"", "killed by SIGABRT", ""});
    // The table: the kept row with its time, the crash reported on its row and on stderr.
    const auto kept = r.out.find("│ first_then_crash ");
    REQUIRE(kept != std::string::npos);
    CHECK(contains(r.out.substr(kept, r.out.find('\n', kept) - kept), "ns"));
    CHECK(contains(r.out, "killed by SIGABRT"));
    CHECK(contains(r.err, "glint: first_then_crash#2: killed by SIGABRT"));
}
