// Combining a pass's brackets robustly (batch_math): synthetic bracket streams.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/counting/batch_math.hpp"
#include "support/group_delta.hpp"

using namespace glint::engine::counting;
using glint::test::delta;

namespace {

// A pass as run_pass keeps it: body brackets (with their iterations) and empty brackets.
struct Stream {
    PassTotals totals;
    BracketSeries series;
    std::vector<GroupDelta> empties;
    std::uint64_t iterations = 0;

    explicit Stream(std::uint64_t brackets) { series.reserve(brackets); }
    void body(const GroupDelta& d, std::uint64_t n) {
        totals.add(d);
        series.add(d, n);
        iterations += n;
    }
    CombinedPass combine(std::uint64_t batch) const {
        return combine_pass(totals, series, empties, mean_cost(empties), iterations, batch);
    }
};

// Exact counts: every bracket costs 80 cycles and 47 instructions; the body retires 50 cycles
// (member 0) and 24 instructions (member 1) per iteration.
Stream exact_stream(std::uint64_t brackets, std::uint64_t batch) {
    Stream s(brackets);
    for (std::uint64_t b = 0; b < brackets; ++b)
        s.body(delta(1000, 1000, {80 + 50 * batch, 47 + 24 * batch}), batch);
    for (int e = 0; e < 31; ++e) s.empties.push_back(delta(100, 100, {80, 47}));
    return s;
}

}  // namespace

TEST_CASE("batch math: one interrupted bracket among exact ones leaves the count exact") {
    Stream s = exact_stream(64, 1000);
    // A timer tick in bracket 17: kernel instructions and cycles, in both members at once.
    s.series.counts[17 * 2 + 0] += 9000;
    s.series.counts[17 * 2 + 1] += 3371;
    s.totals.counts[0] += 9000;
    s.totals.counts[1] += 3371;
    // ... and one in an empty bracket.
    s.empties[5].counts[1] += 2900;
    const CombinedPass c = s.combine(1000);
    CHECK(c.spread.robust);
    CHECK(c.spread.rejected == 1);
    CHECK(c.spread.empty_rejected == 1);
    CHECK(c.per.values[1] == 24.0);
    CHECK(c.per.values[0] == 50.0);
    // The sum would have moved: the tick shows in the plain per-iteration value.
    const PerIteration sum = per_iteration(s.totals, s.iterations, mean_cost(s.empties));
    CHECK(sum.values[1] != doctest::Approx(24.0).epsilon(1e-6));
    REQUIRE(c.spread.members.size() == 2);
    CHECK(c.spread.members[1].median == 24.0);
    CHECK(c.spread.members[1].mad == 0.0);
    CHECK(c.spread.members[1].max > 27.0);
}

TEST_CASE("batch math: a fractional exact count survives (the mean, not a median of integers)") {
    // 24.5 per iteration: every bracket of 1000 reads 24500 beyond its cost.
    Stream s = exact_stream(40, 1000);
    for (std::size_t b = 0; b < 40; ++b) s.series.counts[b * 2 + 1] += 500;
    s.totals.counts[1] += 40 * 500;
    const CombinedPass c = s.combine(1000);
    CHECK(c.spread.robust);
    CHECK(c.per.values[1] == 24.5);
}

TEST_CASE("batch math: a short last bracket counts, and a noisy member rejects only outliers") {
    Stream s(66);
    for (std::uint64_t b = 0; b < 64; ++b)
        s.body(delta(1000, 1000, {1000 + 20 * (b % 5), 47 + 24 * 100}), 100);
    s.body(delta(1000, 1000, {1000, 47 + 24 * 37}), 37);      // the remainder
    s.body(delta(1000, 1000, {900000, 47 + 24 * 100}), 100);  // slow in cycles only
    for (int e = 0; e < 31; ++e) s.empties.push_back(delta(100, 100, {1000, 47}));
    const CombinedPass c = s.combine(100);
    CHECK(c.spread.robust);
    CHECK(c.spread.rejected == 1);  // the slow one; the remainder agrees on instructions
    CHECK(c.per.values[1] == 24.0);
    CHECK(c.per.values[0] == doctest::Approx(2520.0 / (64 * 100 + 37)).epsilon(1e-12));
}

TEST_CASE("batch math: too few brackets keep the sum, with the reason") {
    Stream s = exact_stream(31, 1000);
    s.series.counts[3] += 3371;
    s.totals.counts[1] += 3371;
    const CombinedPass c = s.combine(1000);
    CHECK_FALSE(c.spread.robust);
    CHECK(c.spread.reason == "fewer than 32 full brackets");
    const PerIteration sum = per_iteration(s.totals, s.iterations, mean_cost(s.empties));
    CHECK(c.per.values[1] == sum.values[1]);
    CHECK(c.per.values[1] > 24.0);
}

TEST_CASE("batch math: a multiplexed pass keeps its scaled sum") {
    Stream s(64);
    for (std::uint64_t b = 0; b < 64; ++b) {
        // Half the brackets on the PMU, half not: the pass's own enabled/running scales it.
        const bool on = b % 2 == 0;
        s.body(delta(1'000'000, on ? 1'000'000 : 0, {on ? 2047u : 0u, on ? 24047u : 0u}), 1000);
    }
    for (int e = 0; e < 31; ++e) s.empties.push_back(delta(100, 100, {47, 47}));
    const CombinedPass c = s.combine(1000);
    CHECK_FALSE(c.spread.robust);
    CHECK(c.spread.reason.find("multiplexed") != std::string::npos);
    CHECK(c.per.estimated);
    CHECK(c.per.values[1] == doctest::Approx(24.0));  // scaled by 2, less 64 brackets' cost
}

TEST_CASE("batch math: no majority of agreeing brackets keeps the sum") {
    Stream s = exact_stream(64, 1000);
    for (std::size_t b = 0; b < 64; b += 3) {  // 22 of 64 disturbed: more than a quarter
        s.series.counts[b * 2 + 1] += 100 + b;
        s.totals.counts[1] += 100 + b;
    }
    const CombinedPass c = s.combine(1000);
    CHECK_FALSE(c.spread.robust);
    CHECK(c.spread.reason.find("no majority") != std::string::npos);
    CHECK(c.per.values[1] > 24.0);
}

TEST_CASE("batch math: outliers by the modified z-score, members rejected together") {
    std::vector<std::vector<double>> values;
    for (int b = 0; b < 20; ++b) values.push_back({10.0 + (b % 4), 5.0});
    values.push_back({10.0, 6.0});  // exact member moved: rejected (MAD 0)
    values.push_back({40.0, 5.0});  // noisy member far out: rejected
    values.push_back({13.5, 5.0});  // within 3.5 robust deviations: kept
    const std::vector<bool> out = outlier_brackets(values);
    CHECK(out[20]);
    CHECK(out[21]);
    CHECK_FALSE(out[22]);
    CHECK(std::count(out.begin(), out.end(), true) == 2);
}

TEST_CASE("batch math: the spread's JSON says how the value was combined, null where not") {
    Stream s = exact_stream(8, 10);
    const CombinedPass sum = s.combine(10);
    auto j = spread_json(sum.spread, {"cycles", "instructions"});
    CHECK(j["combined"].as_string() == "sum");
    CHECK(j["reason"].as_string() == "fewer than 32 full brackets");
    CHECK(j["rejected"].is_null());
    CHECK(j["perIteration"].is_null());
    Stream r = exact_stream(40, 10);
    auto k = spread_json(r.combine(10).spread, {"cycles", "instructions"});
    CHECK(k["combined"].as_string() == "robust");
    CHECK(k["reason"].is_null());
    CHECK(k["rejected"].as_number() == 0);
    CHECK(k["brackets"].as_number() == 40);
    CHECK(k["perIteration"]["instructions"]["median"].as_number() == 24);
}

TEST_CASE("batch math: a series past its reservation stops keeping brackets") {
    BracketSeries series;
    series.reserve(2);
    for (int i = 0; i < 3; ++i) series.add(delta(1, 1, {1}), 1);
    CHECK_FALSE(series.kept);
    BracketSeries huge;
    huge.reserve(kMaxKeptBrackets + 1);
    CHECK_FALSE(huge.kept);
}
