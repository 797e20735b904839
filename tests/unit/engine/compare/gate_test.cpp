// The gate that cannot pass silently: each row passed, failed or not judged (with its reason),
// the comparison's outcome and exit status, its line and JSON; and the point estimate, which
// lies inside its interval on random inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "engine/compare/compare.hpp"
#include "engine/compare/compare_report.hpp"

using namespace glint::engine;

namespace {

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

Side side(std::vector<double> reps, double scale = 1.0) {
    Side s;
    for (double& r : reps) r *= scale;
    s.repetition_medians = reps;
    s.median_ns = median_of(reps);
    s.samples_ns = reps;
    return s;
}

// One run with one repetition: 64 samples around `v`.
Side one_run(double v) {
    Side s;
    s.median_ns = v;
    s.repetition_medians = {v};
    for (int i = 0; i < 64; ++i) s.samples_ns.push_back(v * (0.98 + 0.04 * (i % 10) / 9.0));
    return s;
}

// Several runs of `reps_per_run` repetitions each, the runs' medians as given.
Side runs(std::vector<double> run_medians, int reps_per_run = 3) {
    Side s;
    for (double m : run_medians)
        for (int r = 0; r < reps_per_run; ++r)
            s.repetition_medians.push_back(m * (0.999 + 0.001 * r));
    for (double m : run_medians) s.runs.push_back({m});
    s.median_ns = median_of(s.repetition_medians);
    s.samples_ns = s.repetition_medians;
    return s;
}

DocumentRow row(std::string name, std::vector<double> reps) {
    DocumentRow r;
    r.registration = "g";
    r.name = std::move(name);
    r.repetition_medians_ns = reps;
    r.median_ns = median_of(reps);
    r.samples_ns = reps;
    return r;
}

// A row of one run, one repetition: samples around `v`.
DocumentRow single(std::string name, double v) {
    DocumentRow r = row(std::move(name), {v});
    r.samples_ns.clear();
    for (int i = 0; i < 64; ++i) r.samples_ns.push_back(v * (0.98 + 0.04 * (i % 10) / 9.0));
    return r;
}

std::vector<double> around(double v) { return {v, v * 1.01, v * 0.99, v * 1.005, v * 0.995}; }

RunDocument doc(std::string path, std::vector<DocumentRow> rows) {
    RunDocument d;
    d.path = std::move(path);
    d.rows = std::move(rows);
    d.has_registrations = true;
    return d;
}

}  // namespace

TEST_CASE("gate: a row passes only when its interval over repetitions ends within the gate") {
    const CompareSettings settings;
    const std::vector<double> reps{100, 101, 99, 100.5, 99.5};
    const auto judge = [&](const Side& a, const Side& b, double gate) {
        return judge_gate(compare_sides(a, b, settings), gate);
    };
    CHECK(judge(side(reps), side(reps, 1.3), 0.10).outcome == GateOutcome::failed);
    CHECK(judge(side(reps), side(reps, 1.3), 0.40).outcome == GateOutcome::passed);
    CHECK(judge(side(reps), side(reps), 0.10).outcome == GateOutcome::passed);
    CHECK(judge(side(reps), side(reps, 0.5), 0.0).outcome == GateOutcome::passed);  // faster
    // +30% at a 30% gate: the interval straddles +30%: neither passed nor failed.
    const GateJudgement edge = judge(side(reps), side(reps, 1.3), 0.30);
    CHECK(edge.outcome == GateOutcome::unjudged);
    CHECK(edge.why == Unjudged::straddles);
    // Wandering repetitions: an interval from below 1 to above +20% judges nothing at 10%.
    CHECK(judge(side({100, 101, 99, 100, 100}), side({90, 140, 110, 95, 125}), 0.10).why ==
          Unjudged::straddles);
}

TEST_CASE("gate: one run a side, or too few repetitions, is never a pass") {
    const CompareSettings settings;
    // 30% slower with tight samples: the per-sample interval lies above +10%, but it holds no
    // run-to-run variation: not judged (one run a side), never passed.
    const GateJudgement slower =
        judge_gate(compare_sides(one_run(100), one_run(130), settings), 0.10);
    CHECK(slower.outcome == GateOutcome::unjudged);
    CHECK(slower.why == Unjudged::one_run);
    CHECK(judge_gate(compare_sides(one_run(100), one_run(100), settings), 0.10).why ==
          Unjudged::one_run);
    // Beyond the single-run factor (4x) it fails.
    CHECK(judge_gate(compare_sides(one_run(100), one_run(500), settings), 0.10).outcome ==
          GateOutcome::failed);
    // --bench-repeat=3 in one run a side: 3 against 3 reach no 95% interval.
    const Change three = compare_sides(side({100, 101, 99}), side({130, 131, 129}), settings);
    CHECK(three.basis == Basis::samples);
    const GateJudgement few = judge_gate(three, 0.10);
    CHECK(few.outcome == GateOutcome::unjudged);
    CHECK(few.why == Unjudged::few_repetitions);
    CHECK(verdict_text(RowChange{nullptr, three, "", few}) == "noisy (3 reps: need 4+)");
    CHECK(verdict_text(
              RowChange{nullptr, compare_sides(one_run(100), one_run(130), settings), "", {}}) ==
          "noisy (1 rep)");
    // 4 or more repetitions a side: judged.
    CHECK(judge_gate(compare_sides(side({100, 101, 99, 100}), side({130, 131, 129, 130}), settings),
                     0.10)
              .outcome == GateOutcome::failed);
}

TEST_CASE(
    "gate: several runs a side must agree for a pass too, and A/A with 4 runs a side passes") {
    const CompareSettings settings;
    // A/A: 4 runs a side, their medians interleaved within 2%: passes a generous gate.
    const GateJudgement aa = judge_gate(
        compare_sides(runs({100, 101, 99, 100.5}), runs({100.2, 99.5, 101, 100}), settings), 0.10);
    CHECK(aa.outcome == GateOutcome::passed);
    // One far run of five is left out (runs.hpp): the others agree, and the row passes.
    const Change far =
        compare_sides(runs({100, 100, 100}), runs({100, 100.5, 101, 99.5, 112}, 5), settings);
    CHECK(far.dropped.size() == 1);
    CHECK(judge_gate(far, 0.10).outcome == GateOutcome::passed);
    // Runs spread wider than the gate, none far from its side: the runs disagree.
    const Change apart =
        compare_sides(runs({100, 100, 100, 100}), runs({92, 104, 108, 115}), settings);
    CHECK(judge_gate(apart, 0.10).why == Unjudged::runs_straddle);
    // Several runs on one side only: no runs' interval to hold the drift of the other side.
    const GateJudgement lopsided =
        judge_gate(compare_sides(runs({100, 101, 99, 100}), side(around(100)), settings), 0.10);
    CHECK(lopsided.outcome == GateOutcome::unjudged);
    CHECK(lopsided.why == Unjudged::runs_one_side);
}

TEST_CASE("gate: the instructions anchor judges a noisy row by the instructions' change") {
    Side a = side({100, 101, 99, 100}), b = side({90, 140, 110, 95});
    a.instructions = 1000;
    b.instructions = 1050;  // +5%
    const Change c = compare_sides(a, b, CompareSettings{});
    REQUIRE(c.basis == Basis::instructions);
    CHECK(judge_gate(c, 0.03).outcome == GateOutcome::failed);
    CHECK(judge_gate(c, 0.10).outcome == GateOutcome::passed);
}

TEST_CASE("gate: nothing compared is not judged: status 3, and the line asks about the baseline") {
    const RunDocument base = doc("base.json", {row("a", around(100)), row("b", around(100))});
    const RunDocument other =
        doc("new.json", {row("x", around(100)), row("y", around(100)), row("z", around(100))});
    const Comparison c = compare_documents({&base, &other}, CompareSettings{}, 0.10);
    CHECK(c.gate_outcome(false) == GateOutcome::unjudged);
    CHECK(c.gate_status(false) == 3);
    CHECK_FALSE(c.gate_failed());
    CompareReportOptions options;
    options.gate = 0.10;
    CHECK(gate_line(c, options) ==
          "--fail-if-slower=10.0%: COULD NOT JUDGE: no row compared (2 only in base, 3 new)"
          " — is the baseline from this program?");
    const Json j = comparison_json(c, options);
    CHECK(j.at("gate").at("status") == Json("unjudged"));
    CHECK(j.at("gate").at("judged") == Json(0));
    CHECK(j.at("gate").at("unjudged").as_array().empty());
    CHECK(j.at("gate").at("notGatedOnlyInBase") == Json(2));
    CHECK(j.at("gate").at("notGatedNew") == Json(3));
    CHECK(j.at("gate").at("allowUnjudged") == Json(false));
    // A gate of 0 reads as one ("0.0%", not ".0%").
    options.gate = 0.0;
    CHECK(gate_line(compare_documents({&base, &other}, CompareSettings{}, 0.0), options)
              .starts_with("--fail-if-slower=0.0%: "));
    // Without a gate nothing is asked: status 0, no line.
    const Comparison ungated = compare_documents({&base, &other}, CompareSettings{}, std::nullopt);
    CHECK(ungated.gate_status(false) == 0);
    CHECK(gate_line(ungated, CompareReportOptions{}).empty());
}

TEST_CASE("gate: one run a side names the rows it could not judge and the command that would") {
    const RunDocument base = doc("base.json", {single("a", 100), single("b", 100)});
    const RunDocument next = doc("new.json", {single("a", 130), single("b", 100)});
    const Comparison c = compare_documents({&base, &next}, CompareSettings{}, 0.10);
    CHECK(c.gate_status(false) == 3);
    CompareReportOptions options;
    options.gate = 0.10;
    CHECK(gate_line(c, options) ==
          "--fail-if-slower=10.0%: COULD NOT JUDGE 2 of 2 rows (one run a side: 2) — run 8 "
          "alternating runs a "
          "side: glint-compare --alternate=8 BASE_PROGRAM NEW_PROGRAM --fail-if-slower=10");
    // --allow-unjudged: the explicit opt-out passes, and the line says what was not judged.
    options.allow_unjudged = true;
    CHECK(c.gate_status(true) == 0);
    CHECK(gate_line(c, options) ==
          "--fail-if-slower=10.0%: passed: 0 judged, 2 not judged (--allow-unjudged; one run a "
          "side: 2)");
    CHECK(comparison_json(c, options).at("gate").at("status") == Json("passed"));
    CHECK(comparison_json(c, options).at("gate").at("allowUnjudged") == Json(true));
}

TEST_CASE("gate: passed needs every row judged, and a failed row fails whatever else") {
    const RunDocument base = doc("base.json", {row("a", around(100)), row("s", around(100))});
    const RunDocument same = doc("same.json", {row("a", around(100)), row("s", around(100))});
    const Comparison passed = compare_documents({&base, &same}, CompareSettings{}, 0.10);
    CHECK(passed.gate_status(false) == 0);
    CompareReportOptions options;
    options.gate = 0.10;
    CHECK(gate_line(passed, options) ==
          "--fail-if-slower=10.0%: passed: 2 row(s) judged, none slower beyond 10.0% with "
          "confidence");
    CHECK(comparison_json(passed, options).at("gate").at("status") == Json("passed"));
    CHECK(comparison_json(passed, options)
              .at("rows")
              .as_array()[0]
              .at("changes")
              .as_array()[0]
              .at("gate") == Json("passed"));
    // One row more, new (a benchmark added): counted, not gated; the compared rows pass.
    const RunDocument more =
        doc("more.json", {row("a", around(100)), row("s", around(100)), row("n", around(100))});
    const Comparison with_new = compare_documents({&base, &more}, CompareSettings{}, 0.10);
    CHECK(with_new.gate_status(false) == 0);
    CHECK(gate_line(with_new, options) ==
          "--fail-if-slower=10.0%: passed: 2 row(s) judged, none slower beyond "
          "10.0% with confidence; not gated: 1 new");
    // A failed row fails the gate even beside rows not judged.
    const RunDocument slower = doc("slower.json", {row("a", around(130)), row("n", around(100))});
    const Comparison failed = compare_documents({&base, &slower}, CompareSettings{}, 0.10);
    CHECK(failed.gate_status(false) == 1);
    CHECK(failed.gate_status(true) == 1);
    CHECK(gate_line(failed, options) ==
          "--fail-if-slower=10.0%: FAILED: 1 row(s) slower beyond 10.0% with "
          "confidence: g/a; not gated: 1 only in base, 1 new");
    // A filtered run's gate leaves out the baseline rows it did not measure.
    const RunDocument partial = doc("this run", {row("a", around(100))});
    CHECK(compare_documents({&base, &partial}, CompareSettings{}, 0.10).gate_status(false) == 0);
}

TEST_CASE("gate: the point estimate lies inside its interval on random inputs") {
    // Seeded: sizes 1..40 a side (repetitions; 40..400 samples), ties (values on a coarse
    // grid), skew (log-normal, a far tail), two modes; both bases. The ratio of the medians
    // (the change before) falls outside the interval here.
    std::mt19937_64 rng(20261202);
    std::uniform_int_distribution<int> size(1, 40), shape(0, 4), many(40, 400);
    std::lognormal_distribution<double> skewed(0.0, 0.5);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int with_interval = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const int kind = shape(rng);
        const double shift = 0.7 + 0.6 * unit(rng);
        auto draw = [&](int n, double scale) {
            std::vector<double> v;
            for (int i = 0; i < n; ++i) {
                double x = kind == 0   ? 100 * skewed(rng)
                           : kind == 1 ? 100 + 10 * unit(rng)
                                       : 100 * (1 + skewed(rng));
                if (kind == 3) x = std::round(x / 5) * 5 + 5;  // ties
                if (kind == 4)
                    x = unit(rng) < 0.5 ? 100 + unit(rng) : 150 + unit(rng);  // two modes
                if (unit(rng) < 0.05) x *= 4;                                 // a far tail
                v.push_back(x * scale);
            }
            return v;
        };
        const bool per_sample = trial % 2;  // too few repetitions: the (thinned) samples decide
        Side a = side(draw(per_sample ? many(rng) : size(rng), 1.0)),
             b = side(draw(per_sample ? many(rng) : size(rng), shift));
        if (per_sample) {
            a.samples_ns = a.repetition_medians;
            b.samples_ns = b.repetition_medians;
            a.repetition_medians = {a.median_ns};
            b.repetition_medians = {b.median_ns};
        }
        const Change c = compare_sides(a, b, CompareSettings{});
        REQUIRE(std::isfinite(c.ratio));
        if (!std::isfinite(c.low)) continue;
        ++with_interval;
        INFO("trial ", trial, ": ", c.ratio, " in [", c.low, ", ", c.high, "]");
        CHECK(c.low <= c.ratio);
        CHECK(c.ratio <= c.high);
    }
    CHECK(with_interval > 2000);
}
