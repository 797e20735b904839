// The verdict on one row measured twice, on fixed inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/compare/verdict.hpp"

using namespace glint::engine;

namespace {

Side side(std::vector<double> reps, double scale = 1.0) {
    Side s;
    for (double& r : reps) r *= scale;
    s.repetition_medians = reps;
    std::vector<double> sorted = reps;
    std::sort(sorted.begin(), sorted.end());
    s.median_ns = sorted.size() % 2
                      ? sorted[sorted.size() / 2]
                      : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
    s.samples_ns = reps;
    return s;
}

}  // namespace

TEST_CASE("verdict: where an interval lies against the threshold band") {
    CHECK(classify(1.10, 1.05, 1.20, 0.03) == Verdict::slower);
    CHECK(classify(0.90, 0.80, 0.96, 0.03) == Verdict::faster);
    CHECK(classify(1.00, 0.98, 1.02, 0.03) == Verdict::same);
    CHECK(classify(1.015, 1.01, 1.02, 0.03) == Verdict::same);   // small and certain: still same
    CHECK(classify(1.01, 0.98, 1.035, 0.03) == Verdict::same);   // pokes out, narrower than ±3%
    CHECK(classify(1.035, 1.02, 1.05, 0.03) == Verdict::noisy);  // beyond +3% without confidence
    CHECK(classify(1.01, 0.97, 1.08, 0.03) == Verdict::noisy);   // too wide to resolve 3%
    CHECK(classify(1.00, 0.90, 1.10, 0.03) == Verdict::noisy);   // straddles both edges
    CHECK(classify(1.0, std::nan(""), std::nan(""), 0.03) == Verdict::noisy);
    CHECK(classify(1.029, 1.029, 1.029, 0.03) == Verdict::same);  // a certain change within ±3%
}

TEST_CASE("verdict: repetition medians decide, a known 30% shift is slower, identical is same") {
    const std::vector<double> reps{100, 101, 99, 100.5, 99.5};
    const CompareSettings settings;
    const Change slower = compare_sides(side(reps), side(reps, 1.3), settings);
    CHECK(slower.basis == Basis::repetitions);
    CHECK(slower.verdict == Verdict::slower);
    CHECK(slower.ratio == doctest::Approx(1.3));
    CHECK(slower.low > 1.25);
    CHECK(slower.high < 1.35);
    CHECK(slower_beyond(slower, 0.10));
    CHECK_FALSE(slower_beyond(slower, 0.40));

    const Change same = compare_sides(side(reps), side(reps), settings);
    CHECK(same.verdict == Verdict::same);
    CHECK(same.ratio == doctest::Approx(1.0));
    CHECK_FALSE(slower_beyond(same, 0.0));

    const Change faster = compare_sides(side(reps), side(reps, 0.5), settings);
    CHECK(faster.verdict == Verdict::faster);
    CHECK_FALSE(slower_beyond(faster, 0.0));
}

TEST_CASE("verdict: spread between repetitions widens the interval: noisy, not a false alarm") {
    // The new side's repetitions wander from -10% to +40%: the median moved +10% but the
    // interval straddles the threshold.
    const Change c = compare_sides(side({100, 101, 99, 100, 100}), side({90, 140, 110, 95, 125}),
                                   CompareSettings{});
    CHECK(c.basis == Basis::repetitions);
    CHECK(c.verdict == Verdict::noisy);
    CHECK(c.low < 1.0);
    CHECK(c.high > 1.2);
}

TEST_CASE("verdict: unequal repetition counts, and too few for a 95% interval") {
    // 4 against 6: C(10,4) = 210 arrangements, P(U = 0) = 1/210: an interval exists.
    const Change c = compare_sides(side({100, 101, 99, 100}), side({130, 131, 129, 130, 132, 128}),
                                   CompareSettings{});
    CHECK(c.basis == Basis::repetitions);
    CHECK(c.verdict == Verdict::slower);
    // 3 against 3 cannot reach 95%: the per-sample fallback, which never says "same".
    Side a = side({100, 100, 100}), b = side({100, 100, 100});
    const Change few = compare_sides(a, b, CompareSettings{});
    CHECK(few.basis == Basis::samples);
    CHECK(few.verdict == Verdict::noisy);
}

TEST_CASE("verdict: one run each: too noisy to say unless huge and consistent") {
    Side a, b;
    a.median_ns = 100;
    a.repetition_medians = {100};
    for (int i = 0; i < 64; ++i) a.samples_ns.push_back(95 + i % 10);
    b = a;
    // +30% with tight samples: the per-sample interval excludes 1 but says nothing of drift.
    for (double& s : b.samples_ns) s *= 1.3;
    b.median_ns = 130;
    const Change moderate = compare_sides(a, b, CompareSettings{});
    CHECK(moderate.basis == Basis::samples);
    CHECK(moderate.verdict == Verdict::noisy);
    CHECK(moderate.low > 1.2);  // the interval is reported all the same
    CHECK_FALSE(slower_beyond(moderate, 0.10));
    // 3x slower, every sample: still within the single-run factor (4x).
    for (double& s : b.samples_ns) s *= 3.0 / 1.3;
    b.median_ns = 300;
    CHECK(compare_sides(a, b, CompareSettings{}).verdict == Verdict::noisy);
    // 5x: beyond it.
    for (double& s : b.samples_ns) s *= 5.0 / 3.0;
    b.median_ns = 500;
    const Change huge = compare_sides(a, b, CompareSettings{});
    CHECK(huge.verdict == Verdict::slower);
    CHECK(slower_beyond(huge, 0.10));
    // Per-call samples clamped at 0 have no log: they count at half the smallest positive one.
    a.samples_ns[0] = 0;
    CHECK(std::isfinite(compare_sides(a, b, CompareSettings{}).low));
}

TEST_CASE("verdict: the defaults docs/comparing.md states") {
    const CompareSettings d;
    CHECK(d.threshold == 0.03);
    CHECK(d.level == 0.95);
    CHECK(d.instr_threshold == 0.01);
    CHECK(d.single_run_factor == 4.0);
    CHECK(d.thinned_samples == 256);
}

TEST_CASE("verdict: exact instructions decide a noisy row, never overrule a confident one") {
    Side a = side({100, 101, 99, 100}), b = side({90, 140, 110, 95});
    a.instructions = 1000;
    b.instructions = 1050;  // +5%, beyond the 1% anchor
    const CompareSettings settings;
    const Change noisy = compare_sides(a, b, settings);
    CHECK(noisy.time == Verdict::noisy);
    CHECK(noisy.verdict == Verdict::slower);
    CHECK(noisy.basis == Basis::instructions);
    CHECK(noisy.instr_ratio == doctest::Approx(1.05));
    CHECK(slower_beyond(noisy, 0.03));
    CHECK_FALSE(slower_beyond(noisy, 0.10));
    b.instructions = 1005;  // +0.5%: within the anchor's threshold, time's verdict stands
    CHECK(compare_sides(a, b, settings).verdict == Verdict::noisy);
    b.instructions = 900;  // fewer instructions: faster
    CHECK(compare_sides(a, b, settings).verdict == Verdict::faster);
    // Time says "same" with confidence: more instructions do not overrule it.
    Side c = side({100, 101, 99, 100});
    c.instructions = 1100;
    const Change same = compare_sides(a, c, settings);
    CHECK(same.verdict == Verdict::same);
    CHECK(same.instr_ratio == doctest::Approx(1.1));
    // Only one side counted: no anchor.
    b.instructions.reset();
    CHECK(std::isnan(compare_sides(a, b, settings).instr_ratio));
}

TEST_CASE("verdict: sides of several runs are judged on the runs' own medians") {
    // Three runs a side, five repetitions each: the pooled repetitions of B lie 8% above A's,
    // but the runs overlap (B's runs at 104, 108, 112 against A's at 98, 100, 102): a run is the
    // unit of evidence, so the runs' interval decides, and it reaches into the band: noisy.
    auto runs_side = [](std::vector<double> run_medians) {
        Side s;
        for (double m : run_medians)
            for (double f : {0.998, 0.999, 1.0, 1.001, 1.002})
                s.repetition_medians.push_back(m * f);
        for (double m : run_medians) s.runs.push_back({m});
        std::vector<double> sorted = s.repetition_medians;
        std::sort(sorted.begin(), sorted.end());
        s.median_ns = sorted[sorted.size() / 2];
        s.samples_ns = s.repetition_medians;
        return s;
    };
    const CompareSettings settings;
    const Change overlapping =
        compare_sides(runs_side({98, 100, 102}), runs_side({104, 108, 112}), settings);
    CHECK(overlapping.reps_low > 1.03);  // the pooled interval alone would say slower
    CHECK(overlapping.verdict == Verdict::noisy);
    CHECK(overlapping.basis == Basis::runs);
    CHECK(overlapping.interval == Basis::runs);
    // 3 against 3 runs reach 90% at most: every ratio, 104/102 - 1 to 112/98 - 1, at 90%.
    CHECK(overlapping.low == doctest::Approx(104.0 / 102));
    CHECK(overlapping.high == doctest::Approx(112.0 / 98));
    CHECK(overlapping.coverage == doctest::Approx(0.9));
    CHECK(overlapping.runs_low == overlapping.low);
    CHECK_FALSE(slower_beyond(overlapping, 0.0));
    // Every run of B beyond every run of A by more than the threshold: slower, and gated.
    const Change apart =
        compare_sides(runs_side({98, 100, 102}), runs_side({110, 112, 114}), settings);
    CHECK(apart.verdict == Verdict::slower);
    CHECK(apart.basis == Basis::runs);
    CHECK(slower_beyond(apart, 0.05));
    // Beyond the runs' low end (110/102 = +7.8%), the gate does not fail even though the pooled
    // interval reaches it.
    CHECK(apart.reps_low > 1.09);
    CHECK_FALSE(slower_beyond(apart, 0.09));
    // Faster, the same way.
    CHECK(compare_sides(runs_side({110, 112, 114}), runs_side({98, 100, 102}), settings).verdict ==
          Verdict::faster);
    CHECK(compare_sides(runs_side({104, 108, 112}), runs_side({98, 100, 102}), settings).verdict ==
          Verdict::noisy);
    // 5 against 5: the 3rd smallest and largest of 25 ratios; the far run (140) is left out.
    const Change five = compare_sides(runs_side({98, 99, 100, 101, 102}),
                                      runs_side({108, 109, 110, 111, 140}), settings);
    CHECK(five.verdict == Verdict::slower);
    CHECK(five.dropped.size() == 1);
    CHECK(five.runs_high < 140.0 / 98);
    // Runs that agree closely read "same".
    CHECK(
        compare_sides(runs_side({99, 100, 101}), runs_side({99.5, 100, 100.5}), settings).verdict ==
        Verdict::same);
    // One run a side: no interval between runs.
    const Change single = compare_sides(side({100, 101, 99, 100.5, 99.5}),
                                        side({100, 101, 99, 100.5, 99.5}, 1.3), settings);
    CHECK(std::isnan(single.runs_low));
    CHECK(single.verdict == Verdict::slower);
}
