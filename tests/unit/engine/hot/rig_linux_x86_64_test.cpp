// <glint/hot.hpp> on the emulated x86 PMU: the genuine rdpmc instruction, trapped and emulated,
// against fake perf pages (tests/support/emulated_pmu.hpp). A hot read pair around known work,
// the fallback, the distribution of a body whose cost is known, and exact instruction counts by
// single-stepping.
#include <doctest/doctest.h>

#include <glint/bench.hpp>
#include <glint/histogram.hpp>
#include <glint/hot.hpp>

#include <cstdint>
#include <memory>
#include <string>

#include "probes.hpp"
#include "rig_support.hpp"
#include "support/stub_rig.hpp"

using glint::hot::Attachment;
using glint::hot::Delta;
using glint::hot::Group;
using glint::hot::Histogram;
using glint::hot::Path;
using glint::hot::Snapshot;
using glint::test::attach;
using glint::test::EmulatedPmu;
using glint::test::RigFallback;
using glint::test::Stepping;

namespace {

constexpr std::uint64_t kWrap48 = std::uint64_t{1} << 48;

void reprogram_e1(EmulatedPmu& pmu, void*) { pmu.reprogram(1, kWrap48 - 3); }

}  // namespace

TEST_CASE("hot rig: a read pair around known work, the calibrated read cost subtracted") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e0 = pmu.add_event(2, kWrap48 - 100);  // wraps during the test
    const int e1 = pmu.add_event(5, kWrap48 - 10);
    pmu.set_read_cost(7);  // every rdpmc "costs" 7 of each event after it latched
    RigFallback fallback;
    Group<2> g = attach(pmu, fallback, e0, e1);
    REQUIRE(g.ok());
    CHECK(g.path() == Path::inline_user);
    // Between a counter's two reads: the other counter's read in each snapshot and the first read
    // of itself: 2 reads x 7.
    CHECK(g.read_cost().counts[0] == 14);
    CHECK(g.read_cost().counts[1] == 14);

    const std::uint64_t traps = pmu.traps();
    const Snapshot<2> a = g.read();
    CHECK(a.counts[0] == pmu.count(e0) - 14);  // latched before its own and e1's read cost
    CHECK(a.counts[1] == pmu.count(e1) - 7);
    pmu.advance(e0, 1000);
    pmu.advance(e1, 3);
    const Snapshot<2> b = g.read();
    const Delta<2> d = b - a - g.read_cost();
    CHECK(d.counts[0] == 1000);
    CHECK(d.counts[1] == 3);
    CHECK(pmu.traps() - traps == 4);
    CHECK(fallback.calls == 0);
    CHECK(b.ticks > a.ticks);

    // read_counts: the same reads without the timestamp, its own calibrated pair.
    CHECK(g.read_counts_cost().counts[0] == 14);
    CHECK(g.read_counts_cost().counts[1] == 14);
    const glint::hot::Counts<2> c = g.read_counts();
    pmu.advance(e0, 11);
    const glint::hot::Counts<2> dc = g.read_counts() - c - g.read_counts_cost();
    CHECK(dc.counts[0] == 11);
    CHECK(dc.counts[1] == 0);
}

TEST_CASE("hot rig: the out-of-line fallback serves a counter the page stops granting") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e0 = pmu.add_event(0, 5);
    const int e1 = pmu.add_event(1, kWrap48 - 1000);
    RigFallback fallback;
    Group<2> g = attach(pmu, fallback, e0, e1);
    REQUIRE(g.path() == Path::inline_user);
    pmu.advance(e0, 40);
    pmu.advance(e1, 50);

    SUBCASE("descheduled (index 0): read(2)'s count, the other counter still in user space") {
        pmu.deschedule(e1);
        const std::uint64_t traps = pmu.traps();
        const Snapshot<2> s = g.read();
        CHECK(fallback.calls == 1);
        CHECK(s.counts[0] == pmu.count(e0));
        CHECK(s.counts[1] == pmu.count(e1));
        CHECK(pmu.traps() - traps == 2);  // slot 0 inline, then slot 0 again in the fallback
    }
    SUBCASE("the kernel bumps the seqlock mid-read: the retry gives a consistent value") {
        pmu.at_trap(pmu.traps() + 2, &reprogram_e1);  // right after e1's rdpmc latched
        const Snapshot<2> s = g.read();
        CHECK(fallback.calls == 0);
        CHECK(s.counts[0] == pmu.count(e0));
        CHECK(s.counts[1] == pmu.count(e1));
    }
}

TEST_CASE("hot rig: pages that never grant a user read go to read(2) and execute no rdpmc") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e0 = pmu.add_event(0);
    const int e1 = pmu.add_event(1);
    pmu.set_user_rdpmc(e0, false);
    pmu.set_user_rdpmc(e1, false);
    RigFallback fallback;
    Group<2> g = attach(pmu, fallback, e0, e1);
    REQUIRE(g.ok());
    CHECK(g.path() == Path::syscall);
    CHECK(std::string(g.status().reason).find("read(2)") != std::string::npos);
    CHECK(std::string(g.status().remedy).find("rdpmc") != std::string::npos);
    const std::uint64_t traps = pmu.traps();
    const int calls = fallback.calls;
    pmu.advance(e1, 9);
    const Snapshot<2> s = g.read();
    CHECK(fallback.calls == calls + 1);
    CHECK(pmu.traps() == traps);  // the inline reader points at a page that never grants
    CHECK(s.counts[0] == pmu.count(e0));
    CHECK(s.counts[1] == pmu.count(e1));
}

TEST_CASE("hot rig: one page that does not grant sends every read to the fallback") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e0 = pmu.add_event(0);
    const int e1 = pmu.add_event(1);
    pmu.set_user_rdpmc(e1, false);
    RigFallback fallback;
    Group<2> g = attach(pmu, fallback, e0, e1);
    CHECK(g.path() == Path::syscall);  // a read(2) for e1 on every read
    const std::uint64_t traps = pmu.traps();
    const Snapshot<2> s = g.read();
    CHECK(pmu.traps() - traps == 1);  // e0 by the fallback's generic read, none inline
    CHECK(s.counts[0] == pmu.count(e0));
    CHECK(s.counts[1] == pmu.count(e1));
}

TEST_CASE("hot rig: the distribution of a body with a known cost per call") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int cycles = pmu.add_event(0, kWrap48 - 50'000);
    const int instructions = pmu.add_event(1);
    pmu.set_read_cost(5);
    RigFallback fallback;
    Group<2> g = attach(pmu, fallback, cycles, instructions);
    REQUIRE(g.path() == Path::inline_user);
    auto h_cycles = std::make_unique<Histogram>();
    auto h_instructions = std::make_unique<Histogram>();
    // Per 100 calls: 90 cost 100 cycles, 9 cost 700, 1 costs 5000; instructions 40, or 41 on
    // every 4th call.
    for (int call = 0; call < 1000; ++call) {
        const Snapshot<2> a = g.read();
        pmu.advance(cycles, call % 100 == 0 ? 5000 : call % 10 == 0 ? 700 : 100);
        pmu.advance(instructions, call % 4 == 0 ? 41 : 40);
        const Delta<2> d = g.read() - a - g.read_cost();
        h_cycles->record(static_cast<std::uint64_t>(d.counts[0]));
        h_instructions->record(static_cast<std::uint64_t>(d.counts[1]));
    }
    const Histogram::Summary c = h_cycles->summary();
    CHECK(c.count == 1000);
    CHECK(c.min == 100);
    CHECK(c.p50 == 100);
    CHECK(c.p90 == 100);
    CHECK(c.p99 == 700);
    CHECK(c.p999 == 5000);
    CHECK(c.max == 5000);
    const Histogram::Summary i = h_instructions->summary();
    CHECK(i.min == 40);
    CHECK(i.p50 == 40);
    CHECK(i.p90 == 41);
    CHECK(i.max == 41);
    CHECK(fallback.calls == 0);
}

TEST_CASE("hot rig: instructions counted by execution are exact per call") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int cycles = pmu.add_event(0);
    const int instructions = pmu.add_event(1);
    pmu.count_user_instructions(instructions);
    RigFallback fallback;
    Group<2> g = attach(pmu, fallback, cycles, instructions);
    REQUIRE(g.path() == Path::inline_user);
    // One loop for the empty calls (n = 0) and the real ones (n = 1): the instructions around the
    // call are the same, so the empty calls' minimum is the apparatus to the instruction.
    constexpr int kEmpty = 8;
    constexpr int kCalls = 40;
    std::int64_t deltas[kEmpty + kCalls];
    std::int64_t empty_pair = 0;
    std::int64_t pair_by_execution = 0;
    {
        Stepping step(pmu);
        for (int k = 0; k < kEmpty + kCalls; ++k) {
            const std::uint64_t n = glint::black_box<std::uint64_t>(k < kEmpty ? 0 : 1);
            const Snapshot<2> a = g.read();
            glint::test::known_loop(nullptr, n);  // 5 instructions per pass
            const Snapshot<2> b = g.read();
            deltas[k] = (b - a).counts[1];
        }
        g.recalibrate();  // the plain empty pair, now with instructions counted
        empty_pair = g.read_cost().counts[1];
        // What a read pair costs in instructions, by execution: the probe function around a pair
        // minus the same function doing nothing.
        Delta<2> out;
        const std::int64_t t0 = pmu.count(instructions);
        glint_hot_probe_pair(g, &out);
        const std::int64_t t1 = pmu.count(instructions);
        glint_hot_probe_nothing(g, &out);
        const std::int64_t t2 = pmu.count(instructions);
        pair_by_execution = (t1 - t0) - (t2 - t1);
    }
    const std::int64_t apparatus = deltas[0];
    for (int k = 1; k < kEmpty; ++k) CHECK(deltas[k] == apparatus);  // single-stepping is exact
    auto h = std::make_unique<Histogram>();
    for (int k = kEmpty; k < kEmpty + kCalls; ++k)
        h->record(static_cast<std::uint64_t>(deltas[k] - apparatus));
    const Histogram::Summary s = h->summary();
    CHECK(s.count == kCalls);
    CHECK(s.min == 5);
    CHECK(s.p50 == 5);
    CHECK(s.p99 == 5);
    CHECK(s.max == 5);
    CHECK(empty_pair > 0);
    CHECK(pair_by_execution > empty_pair);
    MESSAGE(
        "x86 hot read pair {cycles, instructions} by execution (single-stepped, emulated "
        "rdpmc): the instructions counter sees "
        << empty_pair << " instructions between its two reads (read_cost()); around a call "
        << "of a loop: " << apparatus << "; glint_hot_probe_pair retires " << pair_by_execution
        << " instructions more than an empty probe");
}
