// The counting-pass arithmetic: sizing, baselines, accumulation, scaling, costs, ratios.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/tiers/perf/pass_math.hpp"

using namespace glint::engine;
using namespace glint::engine::perf;

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

GroupDelta delta(std::uint64_t enabled, std::uint64_t running,
                 std::initializer_list<std::uint64_t> counts) {
    GroupDelta d;
    d.enabled = enabled;
    d.running = running;
    for (auto c : counts) d.counts[d.size++] = c;
    d.ok = true;
    return d;
}

}  // namespace

TEST_CASE("plan_pass: automatic count is the timing iterations, capped at 100000") {
    Options o;
    CHECK(plan_pass(10.0, 4096, o).iterations == 4096);
    CHECK(plan_pass(10.0, 16'777'216, o).iterations == 100'000);
    CHECK(plan_pass(10.0, 0, o).iterations == 1);
}

TEST_CASE("plan_pass: a bracket spans about 1 ms of the timed median") {
    Options o;
    // 10 ns/iter: 100000 iterations fit 1 ms.
    CHECK(plan_pass(10.0, 100'000, o).batch == 100'000);
    // 250 ns/iter: 4000 per bracket.
    CHECK(plan_pass(250.0, 100'000, o).batch == 4000);
    // 3 ms/iter: less than one fits; clamped to 1.
    CHECK(plan_pass(3e6, 50, o).batch == 1);
    // Unknown median: one bracket for the whole pass.
    CHECK(plan_pass(std::nan(""), 500, o).batch == 500);
    CHECK(plan_pass(0.0, 500, o).batch == 500);
}

TEST_CASE("plan_pass: --perf-iters pins the count, --perf-batch pins the batch") {
    Options o;
    o.perf_iters = 250'000;  // honoured as given, above the automatic cap
    o.perf_batch = 1;
    PassPlan p = plan_pass(10.0, 4096, o);
    CHECK(p.iterations == 250'000);
    CHECK(p.batch == 1);
    o.perf_batch = 10'000'000;  // clamped to the iterations
    CHECK(plan_pass(10.0, 4096, o).batch == 250'000);
    o.perf_batch = 0;  // clamped up to 1
    CHECK(plan_pass(10.0, 4096, o).batch == 1);
}

TEST_CASE("plan_pass: per-call workloads are never batched") {
    Options o;
    o.perf_batch = 64;
    PassPlan p = plan_pass(5.0, 300, o, /*per_call=*/true);
    CHECK(p.iterations == 300);
    CHECK(p.batch == 1);
}

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

TEST_CASE("PassTotals sums brackets; one failed bracket spoils the pass") {
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
