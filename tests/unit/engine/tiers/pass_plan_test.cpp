#include <doctest/doctest.h>

#include "engine/tiers/pass_plan.hpp"

using namespace glint::engine;

TEST_CASE(
    "pass plan: capped iterations, ~1 ms brackets split in 64 of >= 50 us, pins, per-call "
    "never batched") {
    TimingSummary t;
    t.iterations_per_sample = 1 << 22;
    t.median_ns = 10;  // 100,000 iterations fill 1 ms: brackets of 50 us, the shortest split
    PassSizing o;
    auto p = plan_pass(t, o);
    CHECK(p.iterations == kMaxCountIterations);
    CHECK(p.batch == 5000);

    t.median_ns = 24;  // a 2.4 ms pass: 64 brackets would be shorter than 50 us
    p = plan_pass(t, o);
    CHECK(p.batch == 2084);

    t.median_ns = 100;  // a 10 ms pass: a 64th of it
    p = plan_pass(t, o);
    CHECK(p.batch == 1563);

    t.median_ns = 1000;  // 1,000 per ms
    p = plan_pass(t, o);
    CHECK(p.batch == 1000);

    t.median_ns = 5e6;  // slower than 1 ms: one iteration per bracket
    t.iterations_per_sample = 1;
    p = plan_pass(t, o);
    CHECK(p.iterations == 1);
    CHECK(p.batch == 1);

    t.iterations_per_sample = 4096;
    t.median_ns = 10;
    o.iterations = 500;
    o.batch = 7;
    p = plan_pass(t, o);
    CHECK(p.iterations == 500);
    CHECK(p.batch == 7);

    TimingSummary pc;
    pc.per_call = true;
    pc.samples = 40;
    pc.median_ns = 10;
    PassSizing none;
    p = plan_pass(pc, none);
    CHECK(p.iterations == 40);
    CHECK(p.batch == 1);
}
