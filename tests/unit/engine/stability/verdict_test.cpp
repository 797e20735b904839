// When a row is unstable (engine/stability/verdict.hpp); the legend: unstable_legend_test.cpp.
#include <doctest/doctest.h>

#include "../report/rows.hpp"
#include "engine/report/layout.hpp"
#include "engine/stability/verdict.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;
using Reasons = std::vector<std::string>;

namespace {

// 32 samples of 1,000,000 iterations at 1 ns: 1 ms per sample, 50,000 steps of a 20 ns timer.
TimingSummary steady() {
    TimingSummary t = batched(32, 1'000'000, 1.0, 0.01, 0.99, 1.02);
    t.cpu_ns = 31e6;
    t.wall_ns = 32e6;
    return t;
}
CaseStability still() { return CaseStability{{3}, 0, 0, {}}; }

// One CPU, no migration, and the time lost in a 1 s timing pass (steal in 10 ms ticks).
CaseStability lost(std::optional<double> run_delay_ns, std::optional<double> steal_ns) {
    CaseStability s = still();
    s.time_lost.wall_ns = 1e9;
    s.time_lost.run_delay_ns = run_delay_ns;
    s.time_lost.steal_ns = steal_ns;
    s.time_lost.steal_cpu = 3;
    s.time_lost.steal_tick_ns = 1e7;
    return s;
}

}  // namespace

TEST_CASE("stability: a steady row on one CPU is stable") {
    CHECK(unstable_reasons(steady(), still(), 20).empty());
}

TEST_CASE("stability: CPU time below 90% of wall time is cpu-time") {
    TimingSummary t = steady();
    t.cpu_ns = 0.89 * t.wall_ns;
    CHECK(unstable_reasons(t, still(), 20) == Reasons{"cpu-time"});
    t.cpu_ns = 0.9 * t.wall_ns;
    CHECK(unstable_reasons(t, still(), 20).empty());
    t.cpu_ns = NAN;  // no thread clock: nothing to say
    CHECK(unstable_reasons(t, still(), 20).empty());
}

TEST_CASE("stability: MAD above 5% of the median is spread, unless the median is unresolved") {
    TimingSummary t = steady();
    t.mad_ns = 0.051;
    CHECK(unstable_reasons(t, still(), 20) == Reasons{"spread"});
    t.mad_ns = 0.05;
    CHECK(unstable_reasons(t, still(), 20).empty());
    TimingSummary call = per_call(1000, 10.0, 5.0, 0.0, 40.0);
    call.resolution_ns = 20;  // a median below the bracket is a bound: its spread says nothing
    CHECK(unstable_reasons(call, still(), 20).empty());
    call.median_ns = 100;
    call.mad_ns = 6;
    CHECK(unstable_reasons(call, still(), 20) == Reasons{"spread"});
}

TEST_CASE("stability: a counted migration or a different CPU at the end is migrated") {
    CHECK(unstable_reasons(steady(), CaseStability{{3}, 1, 0, {}}, 20) == Reasons{"migrated"});
    CHECK(unstable_reasons(steady(), CaseStability{{3, 5}, std::nullopt, 0, {}}, 20) ==
          Reasons{"migrated"});
    CHECK(unstable_reasons(steady(), CaseStability{{3}, std::nullopt, 0, {}}, 20).empty());
}

TEST_CASE("stability: preemptions in a quarter of the samples is preempted") {
    CHECK(unstable_reasons(steady(), CaseStability{{3}, 0, 7, {}}, 20).empty());  // 7 of 32
    CHECK(unstable_reasons(steady(), CaseStability{{3}, 0, 8, {}}, 20) == Reasons{"preempted"});
}

TEST_CASE(
    "stability: waiting on a runqueue for more than 5% of the pass's wall time is run-delay") {
    CHECK(unstable_reasons(steady(), lost(50e6, 0), 20).empty());  // exactly 5%
    CHECK(unstable_reasons(steady(), lost(50.1e6, 0), 20) == Reasons{"run-delay"});
    CHECK(unstable_reasons(steady(), lost(std::nullopt, 0), 20).empty());  // unread: no verdict
    CaseStability no_wall = lost(900e6, 0);
    no_wall.time_lost.wall_ns.reset();  // a pass that never began says nothing
    CHECK(unstable_reasons(steady(), no_wall, 20).empty());
}

TEST_CASE("stability: steal above 5% of the wall time, less one tick, is steal") {
    CHECK(unstable_reasons(steady(), lost(0, 60e6), 20).empty());  // 6 ticks: 50 ms beyond one
    CHECK(unstable_reasons(steady(), lost(0, 70e6), 20) == Reasons{"steal"});
    CHECK(unstable_reasons(steady(), lost(0, std::nullopt), 20).empty());
    // A 5 ms pass that read one tick (10 ms, 200% of its wall time): one tick is not evidence.
    CaseStability short_pass = lost(0, 1e7);
    short_pass.time_lost.wall_ns = 5e6;
    CHECK(unstable_reasons(steady(), short_pass, 20).empty());
    short_pass.time_lost.steal_ns = 2e7;  // two ticks: at least 10 ms of a 5 ms pass
    CHECK(unstable_reasons(steady(), short_pass, 20) == Reasons{"steal"});
}

TEST_CASE("stability: batched samples shorter than 1000 timer steps are timer-resolution") {
    TimingSummary t = steady();
    t.iterations_per_sample = 19'999;  // 19,999 ns: 999.95 steps of 20 ns
    CHECK(unstable_reasons(t, still(), 20) == Reasons{"timer-resolution"});
    t.iterations_per_sample = 20'000;
    CHECK(unstable_reasons(t, still(), 20).empty());
    TimingSummary call =
        per_call(1000, 100.0, 1.0, 90.0, 200.0);  // per-call: medianResolved says it
    CHECK(unstable_reasons(call, still(), 20).empty());
}

TEST_CASE("stability: reasons come in a fixed order") {
    TimingSummary t = steady();
    t.cpu_ns = 0.5 * t.wall_ns;
    t.mad_ns = 0.5;
    t.iterations_per_sample = 10;
    CaseStability s = lost(500e6, 500e6);
    s.cpus = {0, 1};
    s.migrations = 2;
    s.preemptions = 32;
    CHECK(unstable_reasons(t, s, 20) == Reasons{"cpu-time", "spread", "migrated", "preempted",
                                                "run-delay", "steal", "timer-resolution"});
    t.estimator = "all-median";
    t.split = true;
    CHECK(unstable_reasons(t, s, 20) == Reasons{"cpu-time", "disturbed", "split", "spread",
                                                "migrated", "preempted", "run-delay", "steal",
                                                "timer-resolution"});
    CHECK(unstable_reason_codes() == Reasons{"cpu-time", "disturbed", "split", "spread", "migrated",
                                             "preempted", "run-delay", "steal",
                                             "timer-resolution"});
}

TEST_CASE("stability: a headline from clean samples is not cpu-time, too few clean is disturbed") {
    TimingSummary t = steady();
    t.cpu_ns = 0.5 * t.wall_ns;  // half the wall time lost, in the disturbed samples
    t.estimator = "clean-median";
    CHECK(unstable_reasons(t, still(), 20).empty());
    t.estimator = "all-median";
    CHECK(unstable_reasons(t, still(), 20) == Reasons{"cpu-time", "disturbed"});
    t.cpu_ns = t.wall_ns;  // too few clean samples though the total looks whole
    CHECK(unstable_reasons(t, still(), 20) == Reasons{"disturbed"});
    t.estimator = "median";  // no per-sample CPU time: the total still judges
    t.cpu_ns = 0.5 * t.wall_ns;
    CHECK(unstable_reasons(t, still(), 20) == Reasons{"cpu-time"});
}

TEST_CASE("stability: a split sample is marked split") {
    TimingSummary t = steady();
    t.split = true;
    CHECK(unstable_reasons(t, still(), 20) == Reasons{"split"});
}

TEST_CASE("stability: the table marks an unstable median with ~") {
    Row stable = timed_row("a", steady());
    stable.stability = still();
    Row shaky = timed_row("b", steady());
    shaky.stability = CaseStability{{0, 1}, 1, 0, {"cpu-time", "migrated"}};
    report::TableHead head;
    CHECK(report::format_row(stable, head).cells[1] == "1.00ns ±0.01ns");
    CHECK(report::format_row(shaky, head).cells[1] == "~1.00ns ±0.01ns");
}
