// What glint::iter and glint::iter_batched hand the runner's session (engine/runner/session.hpp):
// their options, pinned iterations and glint::Metric columns, in any order; and that the forms
// that compiled before the options were variadic still do.
#include <doctest/doctest.h>

#include <glint/bench.hpp>

#include <memory>
#include <string_view>
#include <vector>

#include "engine/runner/session.hpp"
#include "support/capturing_session.hpp"

using glint::Metric;

namespace {

using Capture = glint::test::CapturingSession;

}  // namespace

TEST_CASE("session: glint::iter hands over its metrics and pinned iterations, in any order") {
    Capture session;
    glint::engine::SessionScope scope(session);
    int runs = 0;
    const std::size_t len = 256;
    glint::iter([&] { ++runs; }, Metric{"B", double(len)}, glint::iterations(7),
                Metric{"words", double(len / 8), Metric::level});
    glint::iter([&] { ++runs; }, glint::iterations(3));
    glint::iter([&] { ++runs; }, {});
    glint::iter([&] { return ++runs; });
    glint::iter([&] { ++runs; }, glint::per_param("B", "len"));
    CHECK(runs == 5);
    REQUIRE(session.calls.size() == 5);
    const auto& first = session.calls[0];
    CHECK(first.pinned.count == 7);
    REQUIRE(first.metrics.size() == 2);
    CHECK(first.metrics[0].unit == "B");
    CHECK(first.metrics[0].amount == 256);
    CHECK(first.metrics[0].mode == Metric::rate);
    CHECK(first.metrics[1].unit == "words");
    CHECK(first.metrics[1].mode == Metric::level);
    CHECK(session.calls[1].pinned.count == 3);
    CHECK(session.calls[1].metrics.empty());
    CHECK(session.calls[2].pinned.count == 0);
    CHECK(session.calls[3].metrics.empty());
    REQUIRE(session.calls[4].metrics.size() == 1);
    CHECK(session.calls[4].metrics[0].param == "len");  // resolved by the runner, per body run
    CHECK(session.calls[4].metrics[0].amount == 1);
}

TEST_CASE("session: glint::iter_batched hands over its metrics beside its own options") {
    Capture session;
    glint::engine::SessionScope scope(session);
    int used = 0;
    glint::iter_batched([] { return 2; }, [&](int& v) { used += v; }, glint::max_inputs(8),
                        Metric{"elem", 64}, glint::iterations(5));
    CHECK(used == 2);
    REQUIRE(session.calls.size() == 1);
    CHECK(session.calls[0].pinned.count == 5);
    REQUIRE(session.calls[0].metrics.size() == 1);
    CHECK(session.calls[0].metrics[0].amount == 64);
}

TEST_CASE("session: per_param is a rate of the amount per unit of the parameter") {
    const Metric m = glint::per_param("B", "len");
    CHECK(m.unit == "B");
    CHECK(m.amount == 1);
    CHECK(m.mode == Metric::rate);
    CHECK(m.param == "len");
    CHECK(glint::per_param("elem", "n", 4).amount == 4);
    const Metric plain{"B", 64};  // the aggregate form keeps compiling, no parameter
    CHECK(plain.param.empty());
}
