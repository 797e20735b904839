// Parameters (engine/registry/params.hpp, glint::range / values / param): the values a range
// produces, the combinations a body runs for, the labels they give, glint::param() inside and
// outside a run, and the problems reported before any run.
#include <doctest/doctest.h>

#include <glint/bench.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/registry/params.hpp"

using namespace glint::engine;
using V = std::vector<std::int64_t>;

TEST_CASE("params: range multiplies from lo while <= hi, and always ends with hi") {
    CHECK(glint::range("n", 1 << 10, 1 << 20, 4).values ==
          V{1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20});
    CHECK(glint::range("n", 1 << 10, 1 << 16, 4).values ==
          V{1024, 4096, 16384, 65536});  // docs/writing-benchmarks.md
    CHECK(glint::range("n", 1, 100, 10).values == V{1, 10, 100});
    CHECK(glint::range("n", 8, 100, 4).values == V{8, 32, 100});
    CHECK(glint::range("n", 5, 5).values == V{5});
    CHECK(glint::range("n", 1, INT64_MAX, 1 << 30).values.back() == INT64_MAX);  // no overflow
}

TEST_CASE("params: bad ranges and lists carry one line naming the call and the fix") {
    CHECK(glint::range("n", 0, 10).error == "glint::range(\"n\", 0, 10, 2): lo must be at least 1");
    CHECK(glint::range("n", 10, 5).error.find("hi must be at least lo") != std::string::npos);
    CHECK(glint::range("n", 1, 5, 1).error.find("factor must be at least 2") != std::string::npos);
    CHECK(glint::range("", 1, 5).error.find("needs a name") != std::string::npos);
    CHECK(glint::values("n", {}).error.find("at least one value") != std::string::npos);
    CHECK(glint::values("n", {3, 4, 3}).error.find("3 is listed twice") != std::string::npos);
    CHECK(glint::values("n", {3, 4}).error.empty());
}

namespace {
Registration with(std::vector<glint::Param> params, std::optional<glint::Complexity> c = {}) {
    Registration r;
    r.name = "r";
    r.params = std::move(params);
    r.complexity = std::move(c);
    return r;
}
}  // namespace

TEST_CASE("params: every combination, the first parameter varying slowest") {
    const auto all = instances(with({glint::values("a", {1, 2}), glint::values("b", {7, 8, 9})}));
    REQUIRE(all.size() == 6);
    CHECK(param_labels(all[0]) == Labels{{"a", "1"}, {"b", "7"}});
    CHECK(param_labels(all[2]) == Labels{{"a", "1"}, {"b", "9"}});
    CHECK(param_labels(all[5]) == Labels{{"a", "2"}, {"b", "9"}});
    CHECK(instances(with({})).size() == 1);  // no parameter: one run
    CHECK(instances(with({})).front().empty());
}

TEST_CASE("params: a parameter's label replaces a bench_case label of the same key") {
    const ParamInstance i{{"size", 1000}};
    const auto labels = with_param_labels({{"size", "small"}, {"op", "find"}}, i);
    CHECK(labels ==
          std::vector<std::pair<std::string, std::string>>{{"op", "find"}, {"size", "1000"}});
}

TEST_CASE("params: glint::param reads the innermost scope, and says what is wrong outside one") {
    CHECK_THROWS_WITH_AS(glint::param(), doctest::Contains("has no parameter"), std::logic_error);
    const ParamInstance two{{"rows", 2}, {"cols", 30}};
    {
        ParamScope scope(two);
        CHECK(glint::param("cols") == 30);
        CHECK_THROWS_WITH_AS(glint::param(), doctest::Contains("name one"), std::logic_error);
        CHECK_THROWS_WITH_AS(glint::param("size"), doctest::Contains("no such parameter"),
                             std::logic_error);
        const ParamInstance one{{"size", 4096}};
        ParamScope inner(one);
        CHECK(glint::param() == 4096);
    }
    CHECK_THROWS_AS(glint::param("rows"), std::logic_error);
}

TEST_CASE("params: the problems found before any run name the registration") {
    CHECK_FALSE(registration_problem({with({glint::range("n", 1, 8)}, glint::complexity())}));
    CHECK(*registration_problem({with({glint::range("n", 0, 8)})}) ==
          "GLINT_BENCH(\"r\"): glint::range(\"n\", 0, 8, 2): lo must be at least 1");
    CHECK(registration_problem({with({glint::values("n", {1}), glint::values("n", {2})})})
              ->find("'n' is declared twice") != std::string::npos);
    CHECK(registration_problem({with({}, glint::complexity())})->find("needs a parameter") !=
          std::string::npos);
    CHECK(registration_problem({with({glint::values("n", {1})}, glint::complexity("m"))})
              ->find("names no parameter") != std::string::npos);
    CHECK(complexity_param(with({glint::values("n", {1}), glint::values("m", {1})},
                                glint::complexity())) == "n");
}

TEST_CASE(
    "params: a metric scales by a declared parameter, and any other is a problem before the run") {
    Registration r = with({glint::values("len", {16, 4096}), glint::values("rows", {2})});
    r.metrics = {glint::Metric{"B", 64}, glint::per_param("B", "len")};
    CHECK_FALSE(metric_param_problem(r, r.metrics[0]));  // no parameter
    CHECK_FALSE(metric_param_problem(r, r.metrics[1]));
    CHECK_FALSE(registration_problem({r}));

    r.metrics.push_back(glint::Metric{"elem", 2, glint::Metric::level, "size"});
    const std::string expected =
        "GLINT_BENCH(\"r\"): glint::Metric \"elem\" scales by parameter 'size', which this "
        "registration "
        "does not declare (its parameters: len, rows); name a declared one, or add "
        "glint::range(\"size\", lo, hi) or glint::values(\"size\", {...})";
    CHECK(metric_param_problem(r, r.metrics[2]) == expected);
    CHECK(registration_problem({r}) == expected);
    CHECK(metric_param_problem(with({}), glint::per_param("B", "len"))
              ->find("(it has no parameters)") != std::string::npos);
}

TEST_CASE("params: resolve_metrics multiplies each amount by its parameter's value in this run") {
    const Registration r = with({glint::values("len", {16, 4096}), glint::values("rows", {3})});
    const ParamInstance run{{"len", 4096}, {"rows", 3}};
    const auto resolved =
        resolve_metrics(r, run,
                        {glint::per_param("B", "len"), glint::Metric{"op", 5},
                         glint::Metric{"cells", 2, glint::Metric::level, "rows"}});
    REQUIRE(resolved.size() == 3);
    CHECK(resolved[0].amount == 4096);
    CHECK(resolved[0].param.empty());  // resolved: resolving again changes nothing
    CHECK(resolved[1].amount == 5);
    CHECK(resolved[2].amount == 6);
    CHECK(resolved[2].mode == glint::Metric::level);
    CHECK(resolve_metrics(r, run, resolved)[0].amount == 4096);
    CHECK_THROWS_WITH_AS(
        resolve_metrics(r, run, {glint::per_param("B", "size")}),
        doctest::Contains("parameter 'size', which this registration does not declare"),
        MetricParamError);
}
