// <glint/hot.hpp> across threads on the emulated x86 PMU (tests/support/emulated_pmu.hpp), whose
// pages grant rdpmc: the inline reader a user's code compiles to (probes.hpp's extern "C"
// functions, the code inline_code_linux_x86_64_test.cpp counts) refuses a read on another thread
// before it reads anything — no rdpmc, no fallback — where rdpmc would have read that thread's
// CPU, not the group's counters.
#include <doctest/doctest.h>

#include <glint/hot.hpp>

#include <cstdint>
#include <thread>

#include "probes.hpp"
#include "rig_support.hpp"
#include "support/stub_rig.hpp"

using glint::hot::Counts;
using glint::hot::Delta;
using glint::hot::Group;
using glint::hot::kNotRead;
using glint::hot::Path;
using glint::hot::Snapshot;
using glint::test::attach;
using glint::test::EmulatedPmu;
using glint::test::RigFallback;

TEST_CASE("hot threads rig: the inline reader refuses another thread without a single rdpmc") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e0 = pmu.add_event(2, 1000);
    const int e1 = pmu.add_event(5, 2000);
    RigFallback fallback;
    Group<2> g = attach(pmu, fallback, e0, e1);  // attached on this thread: it owns the group
    REQUIRE(g.path() == Path::inline_user);

    const std::uint64_t traps = pmu.traps();
    Snapshot<2> s{};
    Delta<2> pair{};
    Counts<2> counts{};
    std::thread([&] {
        glint_hot_probe_read(g, &s);
        glint_hot_probe_pair(g, &pair);
        glint_hot_probe_counts_pair(g, &counts);
    }).join();
    CHECK(pmu.traps() == traps);  // no rdpmc ran on the other thread
    CHECK(fallback.calls == 0);
    CHECK(s.counts[0] == kNotRead);
    CHECK(s.counts[1] == kNotRead);
    CHECK(pair.partial());
    CHECK(counts.partial());
    CHECK(g.wrong_thread_reads() == 5);
    CHECK(g.thread_status().refused == 5);

    // On the thread that attached it, the same code reads the counters.
    pmu.advance(e1, 3);
    glint_hot_probe_read(g, &s);
    CHECK(s.counts[0] == pmu.count(e0));
    CHECK(s.counts[1] == pmu.count(e1));
    CHECK(pmu.traps() - traps == 2);
    CHECK(fallback.calls == 0);
    CHECK(g.wrong_thread_reads() == 5);
}
