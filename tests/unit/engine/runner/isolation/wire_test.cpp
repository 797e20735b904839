// The lines an isolated child writes (engine/runner/isolation/wire.hpp): client metrics cross
// them whole, an iter row's in their own line and a bench_case's in its deferred line.
#include <doctest/doctest.h>

#include <stdexcept>

#include "engine/runner/isolation/wire.hpp"

using namespace glint::engine;
using glint::Metric;

TEST_CASE("wire: metrics cross as they are, unit, amount, mode and parameter") {
    const std::vector<Metric> sent{Metric{"B", 4096}, Metric{"words", 512, Metric::level},
                                   glint::per_param("elem", "n", 2)};
    const auto got = metrics_from_json(Json::parse(metrics_json(sent).dump(-1)));
    REQUIRE(got.size() == 3);
    CHECK(got[0].unit == "B");
    CHECK(got[0].amount == 4096);
    CHECK(got[0].mode == Metric::rate);
    CHECK(got[0].param.empty());
    CHECK(got[1].mode == Metric::level);
    CHECK(got[2].param == "n");
    CHECK(got[2].amount == 2);
    CHECK_THROWS_AS(metrics_from_json(Json::parse(R"([{"amount": 1}])")), std::runtime_error);
}

TEST_CASE("wire: a deferred bench_case keeps its per-value metrics") {
    glint::CaseInfo info;
    info.name = "memcpy";
    info.labels = {{"len", "65536"}};
    info.metrics = {Metric{"B", 65536}};
    const DeferredCase d =
        deferred_from_json(Json::parse(deferred_json("copy", 1, info, 2).dump(-1)));
    REQUIRE(d.info.metrics.size() == 1);
    CHECK(d.info.metrics[0].amount == 65536);
    CHECK(d.instance == 2);
}
