// The emulated x86 PMU's threads (tests/support/emulated_pmu.hpp): hardware counters per thread
// context, as the kernel has them. The rdpmc instruction itself is executed on each thread.
#include <doctest/doctest.h>

#include <cstdint>
#include <thread>

#include "support/stub_rig.hpp"

using glint::test::EmulatedPmu;

namespace {

std::uint64_t rdpmc(std::uint32_t counter) {
    std::uint32_t lo, hi;
    asm volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
    return (std::uint64_t{hi} << 32) | lo;
}

}  // namespace

TEST_CASE("emulated PMU threads: each thread's rdpmc reads its own event on the same counter") {
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
