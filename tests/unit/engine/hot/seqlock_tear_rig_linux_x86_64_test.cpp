// The perf page's seqlock under tears, on the emulated x86 PMU with the genuine rdpmc:
//  - a kernel update after every single instruction of an inline <glint/hot.hpp> read (the
//    thread single-stepped, the update made at each step in turn), and right before and after
//    each rdpmc latches: every read returns the true counts, and some of them had to retry;
//  - a page whose lock changes on every read never hangs a reader: the inline read, the
//    fallback's generic read and the engine's JIT stub each give up after kMaxTornReads and read
//    the count another way, counted as a torn fallback.
#include <doctest/doctest.h>

#include <glint/hot.hpp>

#include <unistd.h>

#include <atomic>
#include <cstdint>

#include "os/linux/mmap_page.hpp"
#include "rig_support.hpp"
#include "support/stub_rig.hpp"

namespace x86 = glint::arch::x86_64;
using glint::hot::Group;
using glint::hot::Path;
using glint::hot::Snapshot;
using glint::os::linux_::kMaxTornReads;
using glint::test::EmulatedPmu;
using glint::test::RigFallback;
using glint::test::Stepping;

namespace {

constexpr std::uint64_t kWrap48 = std::uint64_t{1} << 48;

// A kernel update that keeps every count but changes everything a torn read could mix: e0 is
// reprogrammed (a new offset and raw counter value on the same counter) and e1 moves between
// counters 5 and 6 (a new index, offset and raw value), the lock bumped around each.
void kernel_update(EmulatedPmu& pmu, void*) {
    pmu.reprogram(0, kWrap48 - 3 - (pmu.page(0)->offset & 0xff));
    pmu.move(1, pmu.counter(1) == 5 ? 6 : 5, 1000 + pmu.traps());
}

// A "kernel" that changes a page's lock after every rdpmc, and never settles.
void bump_lock(EmulatedPmu& pmu, void* event) {
    perf_event_mmap_page* page = pmu.page(*static_cast<int*>(event));
    std::atomic_signal_fence(std::memory_order_seq_cst);
    *static_cast<volatile std::uint32_t*>(&page->lock) = page->lock + 2;
    std::atomic_signal_fence(std::memory_order_seq_cst);
}

// A reader that spins on the page would hang the test: SIGALRM's default action ends the
// process (a failure) after `seconds` instead.
struct Watchdog {
    explicit Watchdog(unsigned seconds) { alarm(seconds); }
    ~Watchdog() { alarm(0); }
};

[[gnu::noinline]] Snapshot<2> read_once(const Group<2>& g) { return g.read(); }

struct Rig {
    EmulatedPmu pmu{48};
    int e0 = pmu.add_event(2, kWrap48 - 100);
    int e1 = pmu.add_event(5, kWrap48 - 10);
    RigFallback fallback;
};

}  // namespace

TEST_CASE("seqlock tears: an update at every instruction of an inline read never tears it") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    Group<2> g = attach(rig.pmu, rig.fallback, rig.e0, rig.e1);
    REQUIRE(g.path() == Path::inline_user);
    rig.pmu.advance(rig.e0, 1'000);
    rig.pmu.advance(rig.e1, 2'000);
    // How many instructions a stepped read takes, nothing interfering.
    std::uint64_t steps = 0;
    {
        Stepping step(rig.pmu);
        (void)read_once(g);
        steps = rig.pmu.steps;
    }
    REQUIRE(steps > 40);
    int retried = 0;
    for (std::uint64_t k = 1; k <= steps; ++k) {
        INFO("kernel update after stepped instruction " << k << " of " << steps);
        rig.pmu.clear_actions();
        rig.pmu.at_step(k, &kernel_update);
        const std::uint64_t traps = rig.pmu.traps();
        Snapshot<2> s;
        {
            Stepping step(rig.pmu);
            s = read_once(g);
        }
        CHECK(s.counts[0] == rig.pmu.count(rig.e0));
        CHECK(s.counts[1] == rig.pmu.count(rig.e1));
        retried += rig.pmu.traps() - traps > 2;  // a retry executes rdpmc again
    }
    // Around each rdpmc: just before it latches (the offset already loaded) and just after.
    for (std::uint64_t t = 1; t <= 2; ++t) {
        for (const bool before : {true, false}) {
            INFO("kernel update " << (before ? "before" : "after") << " rdpmc " << t);
            rig.pmu.clear_actions();
            if (before) rig.pmu.before_rdpmc(rig.pmu.traps() + t, &kernel_update);
            else rig.pmu.at_trap(rig.pmu.traps() + t, &kernel_update);
            const std::uint64_t traps = rig.pmu.traps();
            const Snapshot<2> s = read_once(g);
            CHECK(s.counts[0] == rig.pmu.count(rig.e0));
            CHECK(s.counts[1] == rig.pmu.count(rig.e1));
            CHECK(rig.pmu.traps() - traps == 3);  // the torn counter read again
        }
    }
    MESSAGE("an inline read of {cycles, instructions}: "
            << steps << " stepped instructions, " << retried << " of the updates made it retry");
    CHECK(retried > 0);
    CHECK(rig.fallback.calls == 0);
    CHECK(rig.pmu.bad_reads() > 0);  // some torn attempts read a counter the event had left
    CHECK(g.torn_fallbacks() == 0);
}

TEST_CASE("seqlock tears: a page whose lock never settles goes to read(2) after a bounded retry") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    Group<2> g = attach(rig.pmu, rig.fallback, rig.e0, rig.e1);
    REQUIRE(g.path() == Path::inline_user);
    rig.pmu.advance(rig.e1, 77);
    rig.pmu.at_trap(0, &bump_lock, &rig.e1);
    const std::uint64_t traps = rig.pmu.traps();
    const Watchdog watchdog(20);
    const Snapshot<2> s = g.read();
    CHECK(s.counts[0] == rig.pmu.count(rig.e0));
    CHECK(s.counts[1] == rig.pmu.count(rig.e1));
    // Slot 0 inline, slot 1 inline until it gives up, then the fallback: slot 0 by the generic
    // reader, slot 1 by the generic reader until it gives up, then read(2).
    CHECK(rig.pmu.traps() - traps == 1 + kMaxTornReads + 1 + kMaxTornReads);
    CHECK(rig.fallback.calls == 1);
    CHECK(g.torn_fallbacks() == 1);
    CHECK(g.syscall_reads() == 1);
}

TEST_CASE("seqlock tears: the engine's JIT stub bounds its retries on a page that never settles") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    x86::StubLayout layout = rig.pmu.layout({rig.e0, rig.e1});
    layout.max_retries = kMaxTornReads;
    auto stub = glint::test::must_emit(x86::emit_bracket_stub(layout, x86::CallBody{}));
    glint::test::SimBody body;
    body.pmu = &rig.pmu;
    body.per_iteration[rig.e0] = 7;
    body.per_iteration[rig.e1] = 3;
    rig.pmu.at_trap(0, &bump_lock, &rig.e1);
    const Watchdog watchdog(20);
    x86::BracketRecord record;
    (*stub)(&glint::test::SimBody::run, &body, 10, &record);
    CHECK(record.counts[0] == 70);
    CHECK(record.counts[1] == 30);
    // The start read of e1 retries max_retries times, then every torn read of the bracket goes
    // out of line; the out-of-line reader gives up after kMaxTornReads and reads "read(2)".
    CHECK(record.retries == kMaxTornReads + 1);
    CHECK(record.torn_fallbacks == 2);
    CHECK(record.slow_reads == 2);
    CHECK(rig.pmu.fallback_reads() == 2);
}
