// <glint/hot.hpp>'s multiplexing contract on the emulated x86 PMU: a region during which the
// kernel had the group off the PMU (time_running stopped while time_enabled went on) is flagged
// (Delta::partial(), descheduled_ns = the time lost), whichever way each end was read (inline
// from the pages, or by the fallback's "read(2)" while the group was off); a region without one
// is not, even after earlier descheduled time.
#include <doctest/doctest.h>

#include <glint/hot.hpp>

#include <cstdint>

#include "rig_support.hpp"
#include "support/stub_rig.hpp"

using glint::hot::Counts;
using glint::hot::Delta;
using glint::hot::Group;
using glint::hot::Path;
using glint::hot::Snapshot;
using glint::test::EmulatedPmu;
using glint::test::RigFallback;

namespace {

constexpr std::uint64_t kWrap48 = std::uint64_t{1} << 48;

// Cycles (the leader) and instructions on counters 2 and 5, both counting.
struct Rig {
    EmulatedPmu pmu{48};
    int e0 = -1;
    int e1 = -1;
    RigFallback fallback;
    Rig() {
        e0 = pmu.add_event(2, kWrap48 - 100);
        e1 = pmu.add_event(5, kWrap48 - 10);
    }
    // The kernel takes the group off the PMU (folding the counts into the pages' offsets)...
    void deschedule() {
        pmu.deschedule(e0);
        pmu.deschedule(e1);
    }
    // ... and puts it back, republishing the pages (times included).
    void schedule() {
        pmu.move(e0, 2, kWrap48 - 7);
        pmu.move(e1, 5, 123);
    }
    // Work while the group counts: both events advance, and both times.
    void work(std::int64_t n) {
        pmu.advance(e0, 3 * n);
        pmu.advance(e1, n);
        pmu.advance_time(10 * n);
    }
};

}  // namespace

TEST_CASE("hot multiplexing: a region spent on the PMU is not flagged, one that lost time is") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    Group<2> g = attach(rig.pmu, rig.fallback, rig.e0, rig.e1);
    REQUIRE(g.path() == Path::inline_user);
    CHECK(g.read_cost().descheduled_ns == 0);
    CHECK(g.read_counts_cost().descheduled_ns == 0);

    const Snapshot<2> a = g.read();
    rig.work(100);
    const Delta<2> d = g.read() - a - g.read_cost();
    CHECK(d.counts[0] == 300);
    CHECK(d.counts[1] == 100);
    CHECK(d.descheduled_ns == 0);
    CHECK_FALSE(d.partial());

    // Off the PMU for 500 ns in the middle of the region: the inline reads at both ends (the
    // second after the kernel republished the pages at schedule-in) see 500 ns more.
    const Snapshot<2> b = g.read();
    rig.work(10);
    rig.deschedule();
    rig.pmu.advance_time(500);
    rig.schedule();
    rig.work(10);
    const Delta<2> p = g.read() - b - g.read_cost();
    CHECK(p.descheduled_ns == 500);
    CHECK(p.partial());
    CHECK(p.counts[1] == 20);  // what the counters saw: short of the region's true work
    CHECK(rig.fallback.calls == 0);

    // Afterwards the group has 500 ns of descheduled time behind it, and a region spent on the
    // PMU is again not flagged (the difference, not the running total, is the flag).
    const Counts<2> c = g.read_counts();
    rig.work(7);
    const Counts<2> dc = g.read_counts() - c - g.read_counts_cost();
    CHECK(c.descheduled_ns == 500);
    CHECK(dc.counts[1] == 7);
    CHECK_FALSE(dc.partial());
    // read_counts() flags like read().
    const Counts<2> e = g.read_counts();
    rig.deschedule();
    rig.pmu.advance_time(40);
    rig.schedule();
    CHECK((g.read_counts() - e).descheduled_ns == 40);
}

TEST_CASE("hot multiplexing: either end read by the fallback while off the PMU is flagged too") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    Group<2> g = attach(rig.pmu, rig.fallback, rig.e0, rig.e1);
    REQUIRE(g.path() == Path::inline_user);
    rig.work(5);

    SUBCASE("start read(2) while off the PMU, end inline after the kernel put it back") {
        // read(2) at the start sees the time off the PMU so far (300); the page republished at
        // schedule-in shows all of it (500): the region lost the 200 ns between its start and
        // the schedule-in, which is > 0 exactly because the group was still off at the start.
        rig.deschedule();
        rig.pmu.advance_time(300);
        const Snapshot<2> a = g.read();
        CHECK(rig.fallback.calls == 1);
        rig.pmu.advance_time(200);
        rig.schedule();
        rig.work(4);
        const Snapshot<2> b = g.read();
        CHECK(rig.fallback.calls == 1);
        const Delta<2> d = b - a;
        CHECK(d.descheduled_ns == 200);
        CHECK(d.partial());
        CHECK(d.counts[1] == 4);
    }
    SUBCASE("start inline, end read(2) while off the PMU") {
        const Snapshot<2> a = g.read();
        rig.work(2);
        rig.deschedule();
        rig.pmu.advance_time(250);
        const Snapshot<2> b = g.read();
        CHECK(rig.fallback.calls == 1);
        CHECK((b - a).descheduled_ns == 250);
        CHECK((b - a).partial());
    }
    SUBCASE("both ends read(2) while off the PMU") {
        rig.deschedule();
        rig.pmu.advance_time(100);
        const Counts<2> a = g.read_counts();
        rig.pmu.advance_time(60);
        const Counts<2> b = g.read_counts();
        CHECK(rig.fallback.calls == 2);
        CHECK((b - a).descheduled_ns == 60);
        CHECK((b - a).counts[1] == 0);
    }
    SUBCASE("read(2) at the start while on the PMU agrees with the page at the end") {
        // e1's page alone stops granting (a revoked rdpmc): the fallback reads e0's page for
        // the times; then a region with no time off the PMU is not flagged.
        rig.deschedule();
        rig.pmu.advance_time(80);
        rig.schedule();
        rig.pmu.set_user_rdpmc(rig.e1, false);
        const Snapshot<2> a = g.read();
        CHECK(rig.fallback.calls == 1);
        rig.pmu.set_user_rdpmc(rig.e1, true);
        rig.work(9);
        const Delta<2> d = g.read() - a;
        CHECK(a.descheduled_ns == 80);
        CHECK_FALSE(d.partial());
        CHECK(d.counts[1] == 9);
    }
}
