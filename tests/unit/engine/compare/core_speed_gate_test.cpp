// The gate on a vCPU whose core speed changes from run to run (issue 41): a run whose pass ran
// its core slower than the row's fastest run is left out on both sides alike, beyond the cap on
// disturbed runs, and never where too few runs would remain or a run was not probed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/compare/compare.hpp"

using namespace glint::engine;

namespace {

constexpr double kFull = 0.276, kSlowed = 0.41;  // ns per add, as this VM's two core speeds

// Eight runs of a row around `ns` (within ±1%) at full core speed, 3 repetitions each.
Side eight_runs(double ns) {
    Side s;
    for (double f : {1.0, 1.004, 0.996, 1.008, 0.992, 1.002, 0.998, 1.006}) {
        RunEvidence run{ns * f};
        run.core_step_ns = kFull;
        s.runs.push_back(run);
        for (double r : {0.999, 1.0, 1.001}) s.repetition_medians.push_back(ns * f * r);
    }
    s.median_ns = ns;
    s.samples_ns = s.repetition_medians;
    return s;
}

// Runs `which` of the side ran on the slower core: their medians `factor` higher.
void slow_down(Side& s, const std::vector<std::size_t>& which, double factor) {
    for (std::size_t i : which) {
        s.runs[i].median_ns *= factor;
        s.runs[i].core_step_ns = kSlowed;
    }
}

std::size_t off_core(const Change& c) {
    return static_cast<std::size_t>(std::count_if(c.dropped.begin(), c.dropped.end(), [](auto& d) {
        return d.why.find("slower than the fastest run's") != std::string::npos;
    }));
}

}  // namespace

TEST_CASE("core speed gate: runs on a slower core are left out on both sides, past the cap") {
    const CompareSettings settings;
    // A/A: one base run and half the new runs ran on the slower core, 40% slower and unmarked.
    Side a = eight_runs(100), b = eight_runs(100);
    slow_down(a, {3}, 1.4);
    slow_down(b, {1, 3, 4, 6}, 1.4);
    const Change screened = compare_sides(a, b, settings);
    CHECK(off_core(screened) == 5);
    CHECK(screened.dropped.front().why == "core 49% slower than the fastest run's");
    CHECK(judge_gate(screened, 0.10).outcome == GateOutcome::passed);
    // Unprobed, the same runs are beyond the quarter the cap leaves out: not judged.
    for (Side* side : {&a, &b})
        for (RunEvidence& run : side->runs) run.core_step_ns = NAN;
    const Change unprobed = compare_sides(a, b, settings);
    CHECK(off_core(unprobed) == 0);
    CHECK(judge_gate(unprobed, 0.10).outcome == GateOutcome::unjudged);
}

TEST_CASE("core speed gate: a real change is caught with slower-core runs on both sides") {
    const CompareSettings settings;
    Side a = eight_runs(100), b = eight_runs(115);
    slow_down(a, {0, 5}, 1.4);
    slow_down(b, {2, 3, 7}, 1.4);
    const Change c = compare_sides(a, b, settings);
    CHECK(off_core(c) == 5);
    CHECK(c.verdict == Verdict::slower);
    CHECK(judge_gate(c, 0.10).outcome == GateOutcome::failed);
}

TEST_CASE("core speed gate: nothing is left out for its core where a side would keep under 3") {
    Side a = eight_runs(100), b = eight_runs(100);
    slow_down(a, {0, 1, 2, 3, 4, 5}, 1.4);  // two base runs at full speed
    CHECK(screen_core_speed(a.runs, b.runs).base == std::vector<std::string>(8));
    // The slower core is the one both sides share when no run ran faster.
    Side c = eight_runs(100), d = eight_runs(100);
    slow_down(c, {0, 1, 2, 3, 4, 5, 6, 7}, 1.4);
    slow_down(d, {0, 1, 2, 3, 4, 5, 6, 7}, 1.4);
    const CoreScreen both_slow = screen_core_speed(c.runs, d.runs);
    CHECK(both_slow.base == std::vector<std::string>(8));
    CHECK(both_slow.next == std::vector<std::string>(8));
    // One run unprobed (a threaded or per-call row has no probe): no core speed to compare.
    Side e = eight_runs(100);
    slow_down(e, {2}, 1.4);
    e.runs[5].core_step_ns = NAN;
    CHECK(screen_core_speed(e.runs, b.runs).base == std::vector<std::string>(8));
}
