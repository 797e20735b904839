// Calibration arithmetic: pure functions, hand-computed expectations.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "arch/x86_64/bracket_calibration.hpp"

namespace x86 = glint::arch::x86_64;

TEST_CASE("calibration: min_cost takes the minimum per slot and for the TSC") {
    std::vector<x86::BracketRecord> r(3);
    r[0].counts[0] = 40, r[0].counts[1] = 9, r[0].tsc = 300;
    r[1].counts[0] = 38, r[1].counts[1] = 12, r[1].tsc = 280;
    r[2].counts[0] = 41, r[2].counts[1] = 10, r[2].tsc = 310;
    const x86::BracketCost c = x86::min_cost(r, 2);
    REQUIRE(c.counts.size() == 2);
    CHECK(c.counts[0] == 38);
    CHECK(c.counts[1] == 9);
    CHECK(c.tsc_ticks == 280);

    r[1].counts[0] = -3;  // a negative delta (possible under scaling) is still the minimum
    CHECK(x86::min_cost(r, 2).counts[0] == -3);
}

TEST_CASE("calibration: no samples means no value, not zero") {
    const x86::BracketCost c = x86::min_cost({}, 2);
    CHECK(std::isnan(c.counts[0]));
    CHECK(std::isnan(c.counts[1]));
    CHECK(std::isnan(c.tsc_ticks));
    CHECK(std::isnan(x86::per_iteration(100, c.counts[0], 10)));
}

TEST_CASE("calibration: per-iteration subtraction") {
    CHECK(x86::per_iteration(7045, 45, 1000) == 7);
    CHECK(x86::per_iteration(20, 45, 1) == -25);  // promised: exact, not clamped
    CHECK(std::isnan(x86::per_iteration(100, 1, 0)));
}

TEST_CASE("calibration: N versus 2N cancels the self-cost") {
    // self-cost 58, 3.5 per iteration, n = 400: dn = 1458, d2n = 2858
    const auto d = x86::difference(1458, 2858, 400);
    CHECK(d.per_iteration == 3.5);
    CHECK(d.self_cost == 58);
    CHECK(std::isnan(x86::difference(1, 2, 0).per_iteration));
}

TEST_CASE("calibration: U versus 2U removes the loop's own cost") {
    // 100 trips; one copy = 3 cycles; loop overhead 1 per trip; self-cost 60.
    // U = 4: 100 * (4*3 + 1) + 60 = 1360; 2U = 8: 100 * (8*3 + 1) + 60 = 2560
    CHECK(x86::per_copy(1360, 2560, 100, 4) == 3);
    CHECK(std::isnan(x86::per_copy(1, 2, 0, 4)));
    CHECK(std::isnan(x86::per_copy(1, 2, 4, 0)));
}

TEST_CASE("calibration: TSC ticks to nanoseconds") {
    CHECK(x86::ticks_to_ns(3000, 3e9) == doctest::Approx(1000));
    CHECK(std::isnan(x86::ticks_to_ns(3000, 0.0)));
    // perf page time_mult/time_shift: mult = 1536, shift = 10 is 1.5 ns per tick
    CHECK(x86::ticks_to_ns(1000, 1536u, std::uint16_t{10}) == 1500);
    CHECK(std::isnan(x86::ticks_to_ns(1000, 0u, std::uint16_t{10})));
}
