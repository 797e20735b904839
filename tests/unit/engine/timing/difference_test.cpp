// The difference method's unit (engine/timing/difference.hpp): an instruction-level row's
// add-cycles is each sample's time over the dependent add timed beside it, so a core whose speed
// changes after the run's start (or between samples) still reads add at 1 and imul at 3. An
// emulated core runs the batch: each call advances an emulated clock (the difference's clock
// seam) by its cycles at the core's current speed; nothing here depends on the host's timing.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/tiers/client_metrics.hpp"
#include "engine/timing/difference.hpp"
#include "engine/timing/protocol.hpp"
#include "os/thread_usage.hpp"
#include "support/skip.hpp"

using namespace glint::engine;

namespace {

// A core of `ns_per_cycle` running the emitted functions of one row (`cycles` a copy of its
// body, 50 and 100 copies a trip) and of the add unit (1 cycle, 100 and 200 adds a trip). A call
// costs 7 ns and a trip 1 cycle more (its dec/jnz): the difference cancels both.
struct EmulatedCore {
    std::int64_t now = 0;  // the emulated clock, ns
    double ns_per_cycle = 0.25;
    double cycles = 1;             // of one copy of the row's body
    std::uint64_t samples = 0;     // calls of the row's reference: one a sample
    double slow_ns_per_cycle = 0;  // > 0: every 4th sample runs at this speed
    bool burn = false;             // spend the emulated time as thread CPU time too (clean samples)

    void advance(std::uint64_t trips, double copies, double cycles_each) {
        const double ns =
            static_cast<double>(trips) * (copies * cycles_each + 1) * ns_per_cycle + 7;
        const std::int64_t step = std::llround(ns);
        now += step;
        if (!burn) return;
        const std::int64_t start = glint::os::thread_cpu_ns();
        while (glint::os::thread_cpu_ns() - start < step) {}
    }
};

EmulatedCore& core_of(void* ctx) { return *static_cast<EmulatedCore*>(ctx); }
void row_reference(void* ctx, std::uint64_t n) {
    EmulatedCore& c = core_of(ctx);
    if (c.slow_ns_per_cycle > 0) c.ns_per_cycle = c.samples % 4 == 3 ? c.slow_ns_per_cycle : 0.25;
    ++c.samples;
    c.advance(n, 50, c.cycles);
}
void row_run(void* ctx, std::uint64_t n) { core_of(ctx).advance(n, 100, core_of(ctx).cycles); }
void unit_reference(void* ctx, std::uint64_t n) { core_of(ctx).advance(n, 100, 1); }
void unit_run(void* ctx, std::uint64_t n) { core_of(ctx).advance(n, 200, 1); }

glint::detail::Batch batch_on(EmulatedCore& core) {
    glint::detail::Batch b;
    b.ctx = &core;
    b.run = &row_run;
    b.reference = &row_reference;
    b.span = 50;
    b.unit_run = &unit_run;
    b.unit_reference = &unit_reference;
    b.unit_span = 100;
    return b;
}

TimingConfig config_on(EmulatedCore& core) {
    TimingConfig config;
    config.pinned = 64;
    config.samples = 8;  // 64 difference samples
    config.min_time_ns = 20'000;
    config.pair_clock = [&core] { return core.now; };
    return config;
}

// The add-cycles cell as <glint/asm.hpp> declares it.
double add_cycles(const TimingSummary& t) {
    return client_cells({glint::Metric{"add-cycles", 1, glint::Metric::in_unit, "", true}}, &t)
        .at(0)
        .value;
}

}  // namespace

TEST_CASE("difference: add-cycles reads add at 1 and imul at 3 after the core slowed") {
    EmulatedCore core;
    // The run's start: one dependent add, by the same difference, on the core at 4 GHz.
    const glint::detail::Batch at_start = batch_on(core);
    const std::uint64_t trips = unit_calls(at_start, 20'000, config_on(core).pair_clock);
    const DifferenceSample start = time_difference(at_start, 1, trips, config_on(core).pair_clock);
    CHECK(start.unit_ns == doctest::Approx(0.25));
    core.ns_per_cycle = 0.4;  // the core slows to 2.5 GHz before the rows
    for (const double cycles : {1.0, 3.0}) {
        core.cycles = cycles;
        const TimingSummary t = time_batched(batch_on(core), config_on(core));
        INFO(cycles << " cycles a copy: " << t.median_ns << " ns, per unit " << t.per_unit);
        CHECK(t.samples == 64);
        CHECK(t.unit_sample_ns.size() == 64);
        CHECK(t.median_ns == doctest::Approx(0.4 * cycles));
        CHECK(add_cycles(t) == doctest::Approx(cycles).epsilon(0.01));
        // What the add timed once at start made of the row: 1.6 and 4.8, 60% high.
        CHECK(t.median_ns / start.unit_ns == doctest::Approx(1.6 * cycles));
    }
}

TEST_CASE("difference: samples on a slowed core are counted and left out, add-cycles holds") {
    if (glint::os::thread_cpu_ns() < 0) return glint::test::skip("this OS has no thread CPU clock");
    EmulatedCore core;
    core.cycles = 3;
    core.slow_ns_per_cycle = 0.5;  // every 4th sample (its row and its unit) at 2 GHz
    core.burn = true;              // every sample keeps its CPU: only the speed tells them apart
    const TimingSummary t = time_batched(batch_on(core), config_on(core));
    INFO("median " << t.median_ns << " ns, per unit " << t.per_unit << ", estimator "
                   << t.estimator);
    REQUIRE(t.slow_core_samples.has_value());
    CHECK(*t.slow_core_samples == 16);
    CHECK(t.estimator == "clean-median");
    CHECK(t.median_ns == doctest::Approx(0.75));  // the core's full speed
    CHECK(add_cycles(t) == doctest::Approx(3.0).epsilon(0.01));
}

TEST_CASE("difference: a row without a unit has no unit samples, and add-cycles reads —") {
    EmulatedCore core;
    glint::detail::Batch b = batch_on(core);
    b.unit_run = b.unit_reference = nullptr;
    const TimingSummary t = time_batched(b, config_on(core));
    CHECK(t.unit_sample_ns.empty());
    CHECK(std::isnan(t.per_unit));
    CHECK_FALSE(t.slow_core_samples.has_value());
    CHECK(std::isnan(add_cycles(t)));
}

TEST_CASE("difference: a probe over 10% above the fastest marks its sample, over 4x does not") {
    const std::vector<bool> slow = slow_unit_samples({100, 105, 111, 390, 401, 0});
    CHECK(slow == std::vector<bool>{false, false, true, true, false, false});
    CHECK(slow_unit_samples({}).empty());
}
