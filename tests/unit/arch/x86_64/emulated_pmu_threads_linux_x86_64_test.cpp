// The emulated x86 PMU's threads (tests/support/emulated_pmu.hpp): hardware counters per thread
// context, as the kernel has them, the rdpmc instruction executed on each thread; and the fake
// perf kernel over it (support/fake_perf_kernel.hpp) serving several threads at once. Also run
// under ThreadSanitizer (tests/sanitize: glint_tsan_tests).
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "os/perf_events.hpp"
#include "support/fake_perf_kernel.hpp"
#include "support/stub_rig.hpp"

using glint::test::EmulatedPmu;
using glint::test::FakePerfKernel;
namespace os = glint::os;

namespace {

std::uint64_t rdpmc(std::uint32_t counter) {
    std::uint32_t lo, hi;
    asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
    return (std::uint64_t{hi} << 32) | lo;
}

}  // namespace

TEST_CASE("emulated PMU threads rig: each thread's rdpmc reads its own event on the same counter") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    pmu.set_read_cost(1);  // every rdpmc advances the reader's events by 1 after latching
    const int mine = pmu.add_event(0, 1000);
    const pid_t main = EmulatedPmu::this_thread();
    int theirs = -1;
    pid_t other = 0;
    std::uint64_t other_read = 0, other_reread = 0, other_missing = 0;
    std::thread([&] {
        other = EmulatedPmu::this_thread();
        theirs = pmu.add_event(0, 5000);  // counter 0 of this thread's context
        pmu.advance_all(7);               // this thread's work: its own event only
        other_read = rdpmc(0);
        other_reread = rdpmc(0);
        other_missing = rdpmc(1);  // no event of this thread holds counter 1
    }).join();
    CHECK(pmu.owner(mine) == main);
    CHECK(pmu.owner(theirs) == other);
    CHECK(pmu.counter(theirs) == pmu.counter(mine));
    CHECK(other_read == 5007);
    CHECK(other_reread == 5008);  // its own first read's cost, none of main's
    CHECK(other_missing != pmu.count(mine));
    CHECK(pmu.bad_reads() == 1);
    CHECK(pmu.count(mine) == 0);  // neither the other thread's work nor its read costs
    CHECK(pmu.count(theirs) == 7 + 3);

    CHECK(rdpmc(0) == 1000);  // main's event on main's counter 0
    CHECK(pmu.count(mine) == 1);
    CHECK(pmu.count(theirs) == 10);
    CHECK(pmu.traps_on(other) == 3);
    CHECK(pmu.traps_on(main) == 1);
    CHECK(pmu.traps() == 4);

    pmu.retire(theirs);  // its fd closed: no thread reads it
    CHECK(pmu.owner(theirs) == 0);
}

TEST_CASE(
    "emulated PMU threads rig: the fake kernel serves threads opening, counting and closing at "
    "once") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    FakePerfKernel kernel(pmu);
    kernel.per_iteration[static_cast<std::size_t>(os::Event::cycles)] = 20;
    kernel.per_iteration[static_cast<std::size_t>(os::Event::instructions)] = 10;
    constexpr unsigned kThreads = 4;
    constexpr unsigned kRounds = 12;  // 2 events a round: 96 of EmulatedPmu::kMaxEvents
    std::atomic<int> failed{0}, wrong{0};
    std::vector<std::thread> team;
    for (unsigned t = 0; t < kThreads; ++t)
        team.emplace_back([&, t] {
            for (unsigned r = 0; r < kRounds; ++r) {
                os::PerfGroup g;
                os::OpenFailure failure;
                os::GroupReading reading;
                if (!g.open(os::GroupSpec{{os::Event::cycles, os::Event::instructions}}, failure) ||
                    !g.enable()) {
                    ++failed;
                    continue;
                }
                kernel.work(t + 1);  // this thread's group only
                if (!g.disable() || !g.read(reading)) ++failed;
                if (reading.values[0] != 20 * (t + 1) || reading.values[1] != 10 * (t + 1)) ++wrong;
            }
        });
    for (auto& thread : team) thread.join();
    CHECK(failed == 0);
    CHECK(wrong == 0);
    CHECK(kernel.live_fds() == 0);
    CHECK(kernel.open_calls == static_cast<int>(2 * kThreads * kRounds));
    CHECK(kernel.by_thread.size() == kThreads);
    for (const auto& [tid, calls] : kernel.by_thread)
        CHECK(calls.reads == static_cast<int>(kRounds));
}

TEST_CASE("emulated PMU threads rig: an event opened for another thread's tid counts that thread") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    FakePerfKernel kernel(pmu);
    kernel.per_iteration[static_cast<std::size_t>(os::Event::instructions)] = 10;
    std::atomic<pid_t> worker{0};
    std::atomic<int> step{0};
    std::thread other([&] {
        worker = EmulatedPmu::this_thread();
        step = 1;
        while (step.load() != 2) std::this_thread::yield();
        kernel.work(3);  // the worker's: counted
        step = 3;
        while (step.load() != 4) std::this_thread::yield();
    });
    while (step.load() != 1) std::this_thread::yield();
    os::GroupSpec spec{{os::Event::instructions}};
    spec.tid = worker.load();
    os::PerfGroup g;
    os::OpenFailure failure;
    REQUIRE(g.open(spec, failure));
    REQUIRE(g.enable());
    kernel.work(100);  // this thread's: not counted
    step = 2;
    while (step.load() != 3) std::this_thread::yield();
    os::GroupReading reading;
    REQUIRE(g.read(reading));
    CHECK(reading.values[0] == 30);
    CHECK(pmu.owner(0) == worker.load());
    step = 4;
    other.join();
}
