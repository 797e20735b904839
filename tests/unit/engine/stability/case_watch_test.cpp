// The time a case lost without running, from two pairs of readings (time_lost_between in
// engine/stability/case_watch.hpp): which CPU's steal, and unknown never turned into 0.
#include <doctest/doctest.h>

#include "engine/stability/case_watch.hpp"

using namespace glint::engine;
using glint::os::RunDelayReading;
using glint::os::StealReading;

namespace {

StealReading steal(std::uint64_t all, std::uint64_t cpu0, std::uint64_t cpu1) {
    return StealReading{true, "", 10'000'000, all, {{0, cpu0}, {1, cpu1}}};
}
const RunDelayReading kDelay0{true, "", 1'000}, kDelay1{true, "", 301'000};

CaseStability on(std::vector<int> cpus, std::optional<std::uint64_t> migrations) {
    return CaseStability{std::move(cpus), migrations, 0, {}};
}

}  // namespace

TEST_CASE("time lost: a thread that stayed on one CPU is charged that CPU's steal") {
    const TimeLost t =
        time_lost_between(steal(10, 4, 6), steal(20, 7, 13), kDelay0, kDelay1, 1e9, on({1}, 0));
    CHECK(t.wall_ns == std::optional<double>(1e9));
    CHECK(t.steal_cpu == std::optional<int>(1));
    CHECK(t.steal_ns == std::optional<double>(7 * 1e7));
    CHECK(t.steal_tick_ns == 1e7);
    CHECK(t.steal_unknown.empty());
    CHECK(t.run_delay_ns == std::optional<double>(300'000));
    // Migrations not countable here, but it ended where it began: still that CPU.
    CHECK(time_lost_between(steal(10, 4, 6), steal(20, 7, 13), kDelay0, kDelay1, 1e9,
                            on({0}, std::nullopt))
              .steal_ns == std::optional<double>(3 * 1e7));
}

TEST_CASE("time lost: a thread that moved is charged the mean steal of every CPU") {
    for (const CaseStability& seen : {on({0, 1}, 1), on({1}, 2), on({}, std::nullopt)}) {
        const TimeLost t =
            time_lost_between(steal(10, 4, 6), steal(20, 7, 13), kDelay0, kDelay1, 1e9, seen);
        CHECK_FALSE(t.steal_cpu);
        CHECK(t.steal_ns == std::optional<double>(5 * 1e7));  // 10 ticks over 2 CPUs
    }
}

TEST_CASE("time lost: what cannot be read, or went backwards, is unknown with why") {
    const StealReading missing{false, "/proc/stat does not exist"};
    const RunDelayReading off{false, "schedstat is off"};
    TimeLost t = time_lost_between(missing, steal(20, 7, 13), kDelay0, off, 1e9, on({1}, 0));
    CHECK_FALSE(t.steal_ns);
    CHECK(t.steal_unknown == "/proc/stat does not exist");
    CHECK_FALSE(t.run_delay_ns);
    CHECK(t.run_delay_unknown == "schedstat is off");
    t = time_lost_between(steal(20, 7, 13), steal(10, 4, 6), kDelay1, kDelay0, 1e9, on({1}, 0));
    CHECK_FALSE(t.steal_ns);
    CHECK(t.steal_unknown == "/proc/stat's steal went backwards");
    CHECK_FALSE(t.run_delay_ns);
    CHECK(t.run_delay_unknown == "schedstat's run delay went backwards");
    StealReading no_cpu3 = steal(20, 7, 13);
    t = time_lost_between(steal(10, 4, 6), no_cpu3, kDelay0, kDelay1, 1e9, on({3}, 0));
    CHECK_FALSE(t.steal_ns);
    CHECK(t.steal_unknown == "/proc/stat has no line for cpu3");
    t = time_lost_between(StealReading{true, "", 10'000'000, 10, {}},
                          StealReading{true, "", 10'000'000, 20, {}}, kDelay0, kDelay1, 1e9,
                          on({0, 1}, 1));
    CHECK(t.steal_unknown == "/proc/stat has no per-CPU lines");
}
