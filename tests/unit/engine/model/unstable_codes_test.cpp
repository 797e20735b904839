// The short code each unstable reason shows in the tables (engine/model/unstable_codes.hpp).
#include <doctest/doctest.h>

#include <set>

#include "engine/model/unstable_codes.hpp"
#include "engine/stability/verdict.hpp"

using namespace glint::engine;
using Reasons = std::vector<std::string>;

TEST_CASE("unstable codes: every reason the verdict gives has its own short code") {
    std::set<std::string_view> codes;
    for (const auto& reason : unstable_reason_codes()) {
        const std::string_view code = unstable_code(reason);
        CHECK(code.size() <= 6);
        CHECK(code.find(',') == std::string_view::npos);
        CHECK(code.find(' ') == std::string_view::npos);
        codes.insert(code);
    }
    CHECK(codes.size() == unstable_reason_codes().size());
    CHECK(unstable_code("cpu-time") == "cpu");
    CHECK(unstable_code("migrated") == "mig");
    CHECK(unstable_code("steal") == "steal");
    CHECK(unstable_code("run-delay") == "delay");
    CHECK(unstable_code("timer-resolution") == "timer");
    CHECK(unstable_code("from-the-future") == "from-the-future");  // a newer document's reason
}

TEST_CASE("unstable codes: a row's cell joins every code in order") {
    CHECK(unstable_cell({}).empty());
    CHECK(unstable_cell({"steal"}) == "steal");
    CHECK(unstable_cell({"cpu-time", "migrated"}) == "cpu,mig");
    CHECK(unstable_cell({"cpu-time", "split", "migrated", "preempted", "steal"}) ==
          "cpu,split,mig,pre,steal");
    CHECK(unstable_cell({"cpu-time", "migrated"}, " ") == "cpu mig");
    CHECK(code_of_reason("cpu-time") == "cpu = cpu-time");
    CHECK(code_of_reason("steal") == "steal");
}
