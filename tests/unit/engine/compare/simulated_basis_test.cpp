// The simulated basis (engine/compare/simulated_basis.hpp): exact simulated instructions
// decide a row with one run a side, whatever its time says.
#include <doctest/doctest.h>

#include <vector>

#include "engine/compare/simulated_basis.hpp"

using namespace glint::engine;

namespace {

// One run: a single repetition, noisy samples, `sim` simulated instructions per iteration.
Side one_run(double ns, double sim) {
    Side s;
    s.median_ns = ns;
    s.repetition_medians = {ns};
    s.samples_ns = {ns * 0.8, ns, ns * 1.3, ns * 0.9, ns * 1.1};
    s.simulated_instructions = sim;
    return s;
}

}  // namespace

TEST_CASE("simulated basis: equal counts read exactly 0 and pass the gate, one run a side") {
    const Change c = compare_sides(one_run(100, 120), one_run(140, 120), CompareSettings{});
    CHECK(c.basis == Basis::simulated);
    CHECK(c.verdict == Verdict::same);
    CHECK(c.ratio == 1.0);
    CHECK(judge_gate(c, 0.02).outcome == GateOutcome::passed);
    CHECK(std::string(to_string(c.basis)) == "simulated");
}

TEST_CASE("simulated basis: a few more instructions are a verdict, and the gate fails beyond it") {
    const Change c = compare_sides(one_run(100, 20), one_run(100, 23), CompareSettings{});
    CHECK(c.basis == Basis::simulated);
    CHECK(c.verdict == Verdict::slower);
    CHECK(c.ratio == doctest::Approx(1.15));
    CHECK(slower_beyond(c, 0.02));
    CHECK(judge_gate(c, 0.02).outcome == GateOutcome::failed);
    CHECK(judge_gate(c, 0.20).outcome == GateOutcome::passed);
    const Change fewer = compare_sides(one_run(100, 23), one_run(100, 20), CompareSettings{});
    CHECK(fewer.verdict == Verdict::faster);
}

TEST_CASE("simulated basis: a side without the count keeps the time's verdict") {
    Side base = one_run(100, 20);
    base.simulated_instructions.reset();
    const Change c = compare_sides(base, one_run(100, 23), CompareSettings{});
    CHECK(c.basis != Basis::simulated);
    CHECK(judge_gate(c, 0.02).outcome == GateOutcome::unjudged);
}
