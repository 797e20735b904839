// The headline estimator on synthetic sample streams (engine/stats/headline.hpp, docs/load.md).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/stats/headline.hpp"
#include "engine/stats/summary.hpp"

using namespace glint::engine;

namespace {

// 32 undisturbed samples around 10 ns (a deterministic ripple of ±0.05 ns), CPU == wall.
struct Stream {
    std::vector<double> wall, cpu;
};
Stream quiet(std::size_t n = 32, double center = 10) {
    Stream s;
    for (std::size_t i = 0; i < n; ++i) {
        const double x = center + 0.05 * std::sin(static_cast<double>(i) * 1.7);
        s.wall.push_back(x);
        s.cpu.push_back(x);
    }
    return s;
}
// Sample i lost the CPU: its wall time grows by `lost` ns per iteration, its CPU time does not.
void disturb(Stream& s, std::size_t i, double lost) { s.wall[i] += lost; }

}  // namespace

TEST_CASE("headline: undisturbed samples give the plain median, every sample clean") {
    const Stream s = quiet();
    const Headline h = estimate_headline(s.wall, s.cpu);
    CHECK(h.estimator == std::string("clean-median"));
    CHECK(h.median == median(s.wall));
    CHECK(h.mad == median_abs_deviation(s.wall));
    CHECK(*h.clean == 32);
    CHECK(*h.disturbed == 0);
    CHECK_FALSE(h.split);
    CHECK_FALSE(h.too_few_clean);
    CHECK(h.spread >= h.mad);
    CHECK(h.spread < 0.2);  // the drift of four blocks of a flat stream is small
}

TEST_CASE("headline: disturbed samples injected do not move the headline") {
    const Stream base = quiet();
    const double idle = estimate_headline(base.wall, base.cpu).median;
    Stream s = base;
    for (std::size_t i = 0; i < 32; i += 3) disturb(s, i, 20);  // 11 of 32 samples 2-3x slower
    const Headline h = estimate_headline(s.wall, s.cpu);
    CHECK(*h.clean == 21);
    CHECK(*h.disturbed == 11);
    CHECK(h.estimator == std::string("clean-median"));
    CHECK(std::fabs(h.median - idle) < 0.015);  // the plain median of all moves further:
    CHECK(median(s.wall) - idle > 0.03);
    CHECK(std::fabs(h.median - idle) <= h.spread);  // the ± covers the idle median
}

TEST_CASE("headline: a disturbance within the tolerance keeps a sample clean") {
    HeadlineRule rule;
    rule.tolerance_ns = 0.5;
    CHECK(is_clean(10.5, 10, rule));  // 0.5 of tolerance
    CHECK(is_clean(10.6, 10, rule));  // + 1% of 10.6
    CHECK_FALSE(is_clean(10.7, 10, rule));
    CHECK_FALSE(is_clean(10, NAN, rule));  // no CPU time read: not known to be clean
    CHECK(is_clean(10, 10.2, rule));       // CPU above wall (a read inside its span)
}

TEST_CASE("headline: with few clean samples the row says so and the ± widens to the spread") {
    Stream s = quiet();
    for (std::size_t i = 0; i < 32; ++i)
        if (i % 4 != 0) disturb(s, i, 15 + static_cast<double>(i % 3));  // 24 of 32 disturbed
    const Headline h = estimate_headline(s.wall, s.cpu);
    CHECK(h.too_few_clean);
    CHECK(h.estimator == std::string("all-median"));
    CHECK(*h.clean == 8);
    CHECK(h.median == median(s.wall));
    CHECK(h.spread > 10 * median_abs_deviation(s.wall));  // not the MAD of the loaded cluster
    CHECK(h.median - h.spread <= 10.05);                  // it reaches the undisturbed samples
}

TEST_CASE("headline: fewer than min_clean clean samples is too few even at half") {
    Stream s = quiet(12);
    for (std::size_t i = 0; i < 12; i += 2) disturb(s, i, 20);  // 6 clean of 12
    CHECK(estimate_headline(s.wall, s.cpu).too_few_clean);
    Stream t = quiet(16);
    for (std::size_t i = 0; i < 16; i += 2) disturb(t, i, 20);  // 8 clean of 16
    CHECK_FALSE(estimate_headline(t.wall, t.cpu).too_few_clean);
}

TEST_CASE("headline: without per-sample CPU times the plain median and MAD") {
    Stream s = quiet();
    disturb(s, 3, 20);
    const Headline h = estimate_headline(s.wall, {});
    CHECK(h.estimator == std::string("median"));
    CHECK_FALSE(h.clean.has_value());
    CHECK_FALSE(h.disturbed.has_value());
    CHECK(h.median == median(s.wall));
    const std::vector<double> no_cpu(32, NAN);
    CHECK(estimate_headline(s.wall, no_cpu).estimator == std::string("median"));
}

TEST_CASE("headline: a split sample is reported and its ± covers both clusters") {
    // The fnv1a [16]: clusters at ~10 and ~25.6 ns, the median in the upper one, both
    // clean (e.g. time lost outside the guest, invisible to the thread clock).
    Stream s = quiet();
    for (std::size_t i = 0; i < 32; ++i)
        if (i % 5 != 0) s.wall[i] = s.cpu[i] = 25.6 + 0.02 * static_cast<double>(i % 4);
    const Headline h = estimate_headline(s.wall, s.cpu);
    CHECK(h.split);
    CHECK(h.median > 25);
    CHECK(h.mad < 0.1);                   // the MAD alone would hide the lower cluster
    CHECK(h.median - h.spread <= 10.05);  // the ± reaches it
    CHECK_FALSE(is_split(quiet().wall));
}

TEST_CASE("headline: samples a clock step or two apart are the clock's quantization, not a split") {
    // A per-call row at its clock's resolution (a 20 ns step): most calls read 40 ns, the rest
    // one or two steps above, one interrupted call far above. No clusters, no ± out to 30 µs.
    Stream s = quiet();
    for (std::size_t i = 0; i < 32; ++i) s.wall[i] = s.cpu[i] = i % 3 == 0 ? (i % 2 ? 80 : 60) : 40;
    s.wall[5] = s.cpu[5] = 30000;
    HeadlineRule rule;
    rule.step_ns = 20;
    const Headline h = estimate_headline(s.wall, s.cpu, rule);
    CHECK_FALSE(h.split);
    // The median of readings in 20 ns steps: the 20 of 32 at 40 ns stand for [30, 50) ns.
    CHECK(h.median == doctest::Approx(30 + 16.0 / 20 * 20));
    CHECK(h.spread >= 20);  // the ± reaches a step of the values' clock, never finer
    CHECK(h.spread < 100);
    // The step the clock reported may be finer than its reads' real steps: those show as the
    // smallest gap between the values (here 20 ns, the clock reporting 1 ns).
    rule.step_ns = 1;
    CHECK_FALSE(estimate_headline(s.wall, s.cpu, rule).split);
    CHECK(is_split({10, 10, 11, 11, 100, 100, 101, 101}, 20));  // a gap of 4.5 steps still is
    CHECK(is_split({40, 40, 50, 50, 90, 90, 100, 100}, 1));     // 4 of the values' 10 ns quanta
    // The bound is two quanta: a gap of 1.5 steps (60 to 90 at a 20 ns step) is a step the
    // clock skipped, not a split; one just over 2 steps is.
    CHECK_FALSE(is_split({40, 40, 40, 40, 40, 60, 90, 90, 90, 90, 90, 90}, 20));
    CHECK(is_split({40, 40, 40, 40, 40, 60, 101, 101, 101, 101, 101, 101}, 20));
}

TEST_CASE("headline: one outlier is not a split") {
    Stream s = quiet();
    s.wall[7] = s.cpu[7] = 30;
    CHECK_FALSE(estimate_headline(s.wall, s.cpu).split);
}

TEST_CASE("headline: a drift between time-ordered blocks widens the ±") {
    Stream s = quiet();
    for (std::size_t i = 16; i < 32; ++i) s.wall[i] = s.cpu[i] += 0.6;  // second half 6% slower
    const Headline h = estimate_headline(s.wall, s.cpu);
    CHECK(h.spread >= 0.55);  // the blocks' medians differ by ~0.6 ns
    CHECK(block_drift(s.wall, 4) == doctest::Approx(0.6).epsilon(0.2));
    CHECK(block_drift(std::vector<double>(7, 1.0), 4) == 0);  // too few for two blocks of 4
}

TEST_CASE("headline: samples on a slowed core leave the headline though their CPU time is whole") {
    // 32 samples at 10 ns; 12 of them ran on a core slowed 1.8x (a busy SMT sibling, a host
    // taking the vCPU without booking steal): CPU time equals wall time, so only the probes tell.
    Stream s = quiet();
    std::vector<bool> slow(32, false);
    for (std::size_t i = 0; i < 32; i += 3) {
        s.wall[i] *= 1.8;
        s.cpu[i] = s.wall[i];
        slow[i] = true;
    }
    const Headline unprobed = estimate_headline(s.wall, s.cpu);
    CHECK(*unprobed.clean == 32);  // by CPU time every sample is clean
    CHECK(unprobed.spread > 5);    // the slowed cluster widens the ±
    CHECK_FALSE(unprobed.slow_core);
    const Headline h = estimate_headline(s.wall, s.cpu, {}, slow);
    CHECK(h.estimator == std::string("clean-median"));
    CHECK(h.median == doctest::Approx(10).epsilon(0.01));
    CHECK(*h.clean == 21);
    CHECK(*h.disturbed == 11);
    CHECK(*h.slow_core == 11);
    CHECK(h.spread < 0.2);
    // Slowed for most samples: too few clean, the row says so and the ± reaches the fast ones.
    std::vector<bool> most(32, true);
    for (std::size_t i = 0; i < 8; ++i) most[i] = false;
    const Headline few = estimate_headline(s.wall, s.cpu, {}, most);
    CHECK(few.estimator == std::string("all-median"));
    CHECK(few.median - few.spread <= 10.05);
}

// A per-call row near a coarse clock's step (10 ns here): each call reads 40 or 50 ns, in the
// share its true duration sets. The plain median jumps a whole step as the share of 50s passes
// half; the headline moves with the share, so two runs of one code agree and a 25% change
// (40 -> 50 ns true) reads as one.
TEST_CASE(
    "headline: per-call readings in a clock's steps give a median that moves with their share") {
    HeadlineRule rule;
    rule.step_ns = 10;
    auto readings = [](std::size_t at_50) {
        std::vector<double> v(100, 40.0);
        for (std::size_t i = 0; i < at_50; ++i) v[i] = 50;
        return v;
    };
    double last = 0;
    for (std::size_t share : {0, 30, 45, 55, 70, 100}) {
        const std::vector<double> v = readings(share);
        const double m = estimate_headline(v, v, rule).median;
        INFO("share at 50 ns: " << share << "%, median " << m);
        CHECK(m > last);
        CHECK(m >= 35);
        CHECK(m <= 55);
        last = m;
    }
    // Either side of half, the plain median jumps 40 -> 50; these two stay within 2 ns.
    const std::vector<double> a = readings(45), b = readings(55);
    CHECK(std::fabs(estimate_headline(a, a, rule).median - estimate_headline(b, b, rule).median) <
          2.0);
    CHECK(grouped_median(std::vector<double>(9, 40.0), 10) == 40);  // all one reading: itself
    CHECK(grouped_median(std::vector<double>{1, 2, 3}, 0.5) == 2);  // no tie: the plain median
}
