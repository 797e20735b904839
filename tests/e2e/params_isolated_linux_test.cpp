// End to end: parameters under --isolate (fork: Linux), fixture params.cpp.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "engine/model/json.hpp"
#include "support/process.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;

TEST_CASE("e2e params: under --isolate each body run and each case runs with its own values") {
    auto plain = run_process({fixture_path("params"), "--isolate"});
    CHECK(plain.exit_code == 0);
    CHECK(contains(plain.out, "ok    grid [cols=30,rows=2]\n"));
    CHECK(contains(plain.out, "ok    lookup/count [op=count,size=1000]\n"));
    CHECK(contains(plain.out, "18 passed, 0 failed"));
    const std::string json = glint::test::temp_json_path("params_isolated");
    auto r = run_process({fixture_path("params"), "--bench", "--bench-min-time=0.2", "--isolate",
                          "--filter=linear,lookup", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    std::string rows;
    for (const auto& row : doc.at("rows").as_array()) {
        rows += row.at("name").as_string() + "=" + row.at("labels").at("size").as_string();
        // A bench_case's child re-runs the body: with the case's parameter value, not another's.
        if (const Json* items = row.at("metrics").find("items"); items && !items->is_null())
            rows += "/" + std::to_string(static_cast<long>(items->as_number()));
        rows += " ";
    }
    CHECK(rows ==
          "linear=64 linear=512 linear=4096 linear=32768 find=10/10 count=10/10 find=1000/1000 "
          "count=1000/1000 ");
    // Rows that come back from children are fitted.
    const auto& fits = doc.at("meta").at("complexity").as_array();
    REQUIRE(fits.size() == 1);
    CHECK(fits[0].at("path").as_string() == "linear");
    CHECK(fits[0].at("points").size() == 4);
}
