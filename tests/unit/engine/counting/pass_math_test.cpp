// The counting-pass arithmetic: baselines, accumulation, scaling, costs, ratios.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/counting/pass_math.hpp"
#include "support/group_delta.hpp"

using namespace glint::engine::counting;
using glint::test::delta;

namespace {

glint::os::GroupReading reading(std::uint64_t enabled, std::uint64_t running,
                                std::initializer_list<std::uint64_t> values) {
    glint::os::GroupReading r;
    r.enabled = enabled;
    r.running = running;
    for (auto v : values) r.values[r.size++] = v;
    r.ok = true;
    return r;
}

}  // namespace

TEST_CASE("delta_between takes time fields against the baseline (RESET does not zero them)") {
    // After RESET the counts read 0 but time_enabled/time_running keep their history.
    auto baseline = reading(5'000'000, 4'000'000, {0, 0});
    auto after = reading(6'000'000, 4'800'000, {1200, 30});
    GroupDelta d = delta_between(baseline, after);
    REQUIRE(d.ok);
    CHECK(d.enabled == 1'000'000);
    CHECK(d.running == 800'000);
    CHECK(d.counts[0] == 1200);
    CHECK(d.counts[1] == 30);
}

TEST_CASE("delta_between refuses failed reads, size changes and values going backwards") {
    auto a = reading(10, 10, {5});
    auto failed = a;
    failed.ok = false;
    CHECK_FALSE(delta_between(a, failed).ok);
    CHECK_FALSE(delta_between(failed, a).ok);
    CHECK_FALSE(delta_between(a, reading(20, 20, {6, 1})).ok);
    CHECK_FALSE(delta_between(a, reading(20, 20, {4})).ok);
    CHECK_FALSE(delta_between(a, reading(5, 20, {6})).ok);
}

TEST_CASE("PassTotals sums brackets, one failed bracket spoils the pass") {
    PassTotals t;
    t.add(delta(100, 100, {10, 1}));
    t.add(delta(200, 150, {20, 2}));
    CHECK(t.ok);
    CHECK(t.brackets == 2);
    CHECK(t.enabled == 300);
    CHECK(t.running == 250);
    CHECK(t.counts[0] == 30);
    GroupDelta bad;
    t.add(bad);
    CHECK_FALSE(t.ok);
    CHECK(t.brackets == 3);
}

TEST_CASE("running_ratio is running/enabled, nan when never enabled") {
    CHECK(running_ratio(1000, 500) == doctest::Approx(0.5));
    CHECK(std::isnan(running_ratio(0, 0)));
}

TEST_CASE("pass_scaling: exact, scaled estimate, or not measured") {
    Scaling exact = pass_scaling(5'000'000, 5'000'000);
    CHECK(exact.measured);
    CHECK_FALSE(exact.estimated);
    CHECK(exact.factor == 1.0);

    Scaling rotated = pass_scaling(4'000'000, 2'000'000);
    CHECK(rotated.measured);
    CHECK(rotated.estimated);
    CHECK(rotated.factor == doctest::Approx(2.0));

    // Multiplexed with under 1 ms of PMU time: noise, not an estimate.
    CHECK_FALSE(pass_scaling(4'000'000, 999'999).measured);
    // A short exact pass is fine: the 1 ms floor only applies to scaled passes.
    CHECK(pass_scaling(50'000, 50'000).measured);
    // Never scheduled, never enabled.
    CHECK_FALSE(pass_scaling(4'000'000, 0).measured);
    CHECK_FALSE(pass_scaling(0, 0).measured);
}

TEST_CASE("median_cost takes the per-member median of empty brackets") {
    std::vector<GroupDelta> brackets{delta(10, 10, {100, 7}), delta(10, 10, {300, 1}),
                                     delta(10, 10, {200, 3})};
    BracketCost c = median_cost(brackets);
    REQUIRE(c.measured);
    CHECK(c.samples == 3);
    CHECK(c.per_bracket[0] == 200);
    CHECK(c.per_bracket[1] == 3);
    brackets.push_back(delta(10, 10, {400, 5}));
    c = median_cost(brackets);
    CHECK(c.per_bracket[0] == 250);  // even count: mean of the middle two
    brackets.push_back(GroupDelta{});
    CHECK_FALSE(median_cost(brackets).measured);
    CHECK_FALSE(median_cost({}).measured);
}

TEST_CASE("median_cost: the uncertainty is the median's standard error, 0 when constant") {
    std::vector<GroupDelta> constant(9, delta(10, 10, {500}));
    BracketCost c = median_cost(constant);
    CHECK(c.per_bracket[0] == 500);
    CHECK(c.uncertainty[0] == 0);
    // 100,200,...,900: median 500, MAD 200.
    std::vector<GroupDelta> spread;
    for (std::uint64_t v = 100; v <= 900; v += 100) spread.push_back(delta(10, 10, {v}));
    c = median_cost(spread);
    CHECK(c.per_bracket[0] == 500);
    CHECK(c.uncertainty[0] == doctest::Approx(1.2533 * 1.4826 * 200 / 3.0));
}

TEST_CASE("mean_cost: the mean and its standard error, scaled, unscheduled skipped") {
    std::vector<GroupDelta> brackets{delta(10, 10, {100}), delta(10, 10, {200}),
                                     delta(10, 10, {300}), delta(10, 5, {200}), delta(10, 0, {0})};
    BracketCost c = mean_cost(brackets);
    REQUIRE(c.measured);
    CHECK(c.samples == 4);
    CHECK(c.per_bracket[0] == doctest::Approx(250.0));  // {100, 200, 300, 400}
    // sample sd of {100,200,300,400} = 129.1; / sqrt(4)
    CHECK(c.uncertainty[0] == doctest::Approx(129.0994 / 2).epsilon(1e-4));
    CHECK(mean_cost(std::vector<GroupDelta>(5, delta(10, 10, {7}))).uncertainty[0] == 0);
    brackets.push_back(GroupDelta{});
    CHECK_FALSE(mean_cost(brackets).measured);
}

TEST_CASE("median_cost scales each empty bracket and skips the unscheduled ones") {
    std::vector<GroupDelta> brackets{delta(10, 5, {50}), delta(10, 0, {0}), delta(10, 10, {90}),
                                     delta(10, 5, {40})};
    BracketCost c = median_cost(brackets);
    REQUIRE(c.measured);
    CHECK(c.samples == 3);
    CHECK(c.per_bracket[0] == 90);  // {100, 90, 80}
    CHECK_FALSE(median_cost({delta(10, 0, {0})}).measured);
}

TEST_CASE("per_iteration subtracts the bracket cost and divides, unrounded") {
    PassTotals t;
    t.add(delta(1000, 1000, {1100, 5}));
    t.add(delta(1000, 1000, {1100, 5}));
    BracketCost cost;
    cost.size = 2;
    cost.per_bracket = {100, 10};
    cost.measured = true;
    PerIteration v = per_iteration(t, 3, cost);
    CHECK_FALSE(v.estimated);
    CHECK(v.values[0] == doctest::Approx(2000.0 / 3.0));  // (2200 - 2*100) / 3
    CHECK(v.values[1] == 0.0);                            // 10 - 20 clamps at zero
}

TEST_CASE("per_iteration: a body lost in the bracket's noise is nan, not 0") {
    // 100 brackets of one iteration: cost 2000 +- 20 per bracket, the body adds 50.
    PassTotals t;
    for (int i = 0; i < 100; ++i) t.add(delta(1000, 1000, {2050, 0}));
    BracketCost cost;
    cost.size = 2;
    cost.per_bracket = {2000, 0};
    cost.uncertainty = {20, 0};
    cost.measured = true;
    PerIteration v = per_iteration(t, 100, cost);
    CHECK(std::isnan(v.values[0]));  // 50 < 3 x 20
    CHECK(v.values[1] == 0.0);       // a constant counter: an exact 0
    // The same body batched 100 per bracket: the uncertainty shrinks 100-fold.
    PassTotals batched;
    batched.add(delta(1000, 1000, {2000 + 100 * 50, 0}));
    v = per_iteration(batched, 100, cost);
    CHECK(v.values[0] == doctest::Approx(50.0));
}

TEST_CASE("per_iteration scales a rotated pass and marks it estimated") {
    PassTotals t;
    t.add(delta(4'000'000, 2'000'000, {500}));
    BracketCost none;
    PerIteration v = per_iteration(t, 10, none);
    CHECK(v.estimated);
    CHECK(v.values[0] == doctest::Approx(100.0));  // 500 * 2 / 10
}

TEST_CASE("per_iteration gives nan, never 0, when nothing was measured") {
    PassTotals failed;
    failed.add(GroupDelta{});
    CHECK(std::isnan(per_iteration(failed, 10, BracketCost{}).values[0]));

    PassTotals never_scheduled;
    never_scheduled.add(delta(5'000'000, 0, {0, 0}));
    PerIteration v = per_iteration(never_scheduled, 10, BracketCost{});
    CHECK(std::isnan(v.values[0]));
    CHECK(std::isnan(v.values[1]));

    PassTotals ok;
    ok.add(delta(100, 100, {1}));
    CHECK(std::isnan(per_iteration(ok, 0, BracketCost{}).values[0]));
}

TEST_CASE("ratio_of is nan on a zero or missing denominator") {
    CHECK(ratio_of(3.0, 2.0) == doctest::Approx(1.5));
    CHECK(std::isnan(ratio_of(3.0, 0.0)));
    CHECK(std::isnan(ratio_of(std::nan(""), 2.0)));
    CHECK(std::isnan(ratio_of(1.0, std::nan(""))));
}
