// The real JIT stubs against the emulated PMU: exact deltas after calibration, seqlock retries,
// moved and zero indices, 48-bit wrap, inline bodies.
#include <xbyak/xbyak.h>

#include "support/stub_rig.hpp"

namespace x86 = glint::arch::x86_64;
using glint::test::EmulatedPmu;
using glint::test::SimBody;

namespace {

constexpr std::uint64_t kWrap48 = std::uint64_t{1} << 48;
constexpr std::uint32_t kFixedCounter1 = (1u << 30) | 1;  // Intel fixed counter 1 (rdpmc ECX)

struct Rig {
    EmulatedPmu pmu{48};
    int e0 = pmu.add_event(0, kWrap48 - 100'000);
    int e1 = pmu.add_event(1, 12345);
    int e2 = pmu.add_event(kFixedCounter1, kWrap48 - 5);
    SimBody body;
    Rig() {
        body.pmu = &pmu;
        body.per_iteration[e0] = 7;
        body.per_iteration[e1] = 3;
        body.per_iteration[e2] = 11;
    }
};

void reprogram_e1(EmulatedPmu& pmu, void*) { pmu.reprogram(1, kWrap48 - 77); }
void move_e1_to_5(EmulatedPmu& pmu, void*) { pmu.move(1, 5, 999); }

}  // namespace

TEST_CASE("stub: calibrated self-cost mirrors the reverse read order exactly") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    rig.pmu.set_read_cost(5);  // every read "retires" 5 events on every counter
    auto stub =
        glint::test::must_emit(x86::emit_bracket_stub(rig.pmu.layout({0, 1, 2}), x86::CallBody{}));
    const auto empties = glint::test::empty_brackets(*stub, 8);
    const x86::BracketCost cost = x86::min_cost(empties, 3);
    // Slot i sees the reads from its own start read to just before its end read:
    // start reads i..k-1 and end reads k-1..i+1, i.e. 2(k-i)-1 reads.
    CHECK(cost.counts[0] == 25);
    CHECK(cost.counts[1] == 15);
    CHECK(cost.counts[2] == 5);
    CHECK(cost.tsc_ticks > 0);
    for (const auto& r : empties) {
        CHECK(r.retries == 0);
        CHECK(r.slow_reads == 0);
    }
    CHECK(rig.pmu.bad_reads() == 0);
}

TEST_CASE("stub: batched and unbatched per-iteration counts are exact after calibration") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    rig.pmu.set_read_cost(9);
    auto stub =
        glint::test::must_emit(x86::emit_bracket_stub(rig.pmu.layout({0, 1, 2}), x86::CallBody{}));
    const x86::BracketCost cost = x86::min_cost(glint::test::empty_brackets(*stub, 6), 3);
    const double expected[3] = {7, 3, 11};

    SUBCASE("batched: one bracket over 1000 iterations") {
        x86::BracketRecord r;
        (*stub)(&SimBody::run, &rig.body, 1000, &r);
        for (int i = 0; i < 3; ++i) {
            CHECK(x86::per_iteration(static_cast<double>(r.counts[i]), cost.counts[i], 1000) ==
                  expected[i]);
        }
        // Uncalibrated, the apparatus shows: the subtraction is what makes it exact.
        CHECK(static_cast<double>(r.counts[0]) / 1000 != expected[0]);
    }
    SUBCASE("unbatched: one iteration per bracket") {
        for (int rep = 0; rep < 20; ++rep) {
            x86::BracketRecord r;
            (*stub)(&SimBody::run, &rig.body, 1, &r);
            for (int i = 0; i < 3; ++i) {
                CHECK(x86::per_iteration(static_cast<double>(r.counts[i]), cost.counts[i], 1) ==
                      expected[i]);
            }
        }
    }
    SUBCASE("N versus 2N cancels a per-call cost the empty body does not have") {
        rig.body.per_call = 13;
        x86::BracketRecord rn, r2n;
        (*stub)(&SimBody::run, &rig.body, 400, &rn);
        (*stub)(&SimBody::run, &rig.body, 800, &r2n);
        for (int i = 0; i < 3; ++i) {
            const auto d = x86::difference(static_cast<double>(rn.counts[i]),
                                           static_cast<double>(r2n.counts[i]), 400);
            CHECK(d.per_iteration == expected[i]);
            CHECK(d.self_cost == cost.counts[i] + 13);
        }
    }
}

TEST_CASE("stub: a lock bumped in the middle of a read retries and never yields a torn value") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto stub =
        glint::test::must_emit(x86::emit_bracket_stub(rig.pmu.layout({0, 1, 2}), x86::CallBody{}));
    SUBCASE("in a start read") {
        rig.pmu.at_trap(rig.pmu.traps() + 2, &reprogram_e1);  // right after e1's start rdpmc
    }
    SUBCASE("in an end read") {
        rig.pmu.at_trap(rig.pmu.traps() + 5, &reprogram_e1);  // right after e1's end rdpmc
    }
    x86::BracketRecord r;
    (*stub)(&SimBody::run, &rig.body, 50, &r);
    CHECK(r.retries == 1);
    CHECK(r.slow_reads == 0);
    CHECK(r.counts[0] == 350);
    CHECK(r.counts[1] == 150);  // the latched old counter plus the new offset would be far off
    CHECK(r.counts[2] == 550);
    CHECK(rig.pmu.traps() == 7);  // six reads and one re-read
}

TEST_CASE("stub: an index that moved is read through the slow path, not the baked counter") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto stub =
        glint::test::must_emit(x86::emit_bracket_stub(rig.pmu.layout({0, 1, 2}), x86::CallBody{}));
    SUBCASE("between brackets") {
        rig.pmu.move(1, 5, 999);
        x86::BracketRecord r;
        (*stub)(&SimBody::run, &rig.body, 20, &r);
        CHECK(r.slow_reads == 2);
        CHECK(r.retries == 0);
        CHECK(r.counts[1] == 60);
    }
    SUBCASE("in the middle of a read") {
        rig.pmu.at_trap(rig.pmu.traps() + 2, &move_e1_to_5);
        x86::BracketRecord r;
        (*stub)(&SimBody::run, &rig.body, 20, &r);
        CHECK(r.retries == 1);
        CHECK(r.slow_reads == 2);  // the retried start read and the end read
        CHECK(r.counts[0] == 140);
        CHECK(r.counts[1] == 60);
        CHECK(r.counts[2] == 220);
    }
    CHECK(rig.pmu.bad_reads() == 0);  // counter 1 (now empty) was never read again
    CHECK(rig.pmu.fallback_reads() == 0);
}

TEST_CASE("stub: index 0 or a withdrawn cap_user_rdpmc falls back without executing rdpmc") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto stub =
        glint::test::must_emit(x86::emit_bracket_stub(rig.pmu.layout({0, 1, 2}), x86::CallBody{}));
    SUBCASE("index 0") { rig.pmu.deschedule(1); }
    SUBCASE("cap_user_rdpmc cleared") { rig.pmu.set_user_rdpmc(1, false); }
    const std::uint64_t traps_before = rig.pmu.traps();
    x86::BracketRecord r;
    (*stub)(&SimBody::run, &rig.body, 30, &r);
    CHECK(r.slow_reads == 2);
    CHECK(rig.pmu.fallback_reads() == 2);        // read(2) served both reads of e1
    CHECK(rig.pmu.traps() - traps_before == 4);  // rdpmc only for e0 and e2
    CHECK(r.counts[0] == 210);
    CHECK(r.counts[1] == 90);
    CHECK(r.counts[2] == 330);
}

TEST_CASE("stub: a 48-bit counter wrapping between two reads is sign-extended") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e = pmu.add_event(2, kWrap48 - 10);  // the kernel's negative start: -10
    SimBody body;
    body.pmu = &pmu;
    body.per_iteration[e] = 1;
    x86::StubLayout layout = pmu.layout({e});
    auto stub = glint::test::must_emit(x86::emit_bracket_stub(layout, x86::CallBody{}));
    x86::BracketRecord r;
    (*stub)(&SimBody::run, &body, 1000, &r);  // raw 0xffff_ffff_fff6 -> 0x3de
    CHECK(r.counts[0] == 1000);

    // The same read without sign extension (a 64-bit width baked in) is off by 2^48: the
    // extension is what makes the wrap come out right.
    pmu.reprogram(e, kWrap48 - 10);
    layout.counters[0].width = 64;
    auto unextended = glint::test::must_emit(x86::emit_bracket_stub(layout, x86::CallBody{}));
    (*unextended)(&SimBody::run, &body, 1000, &r);
    CHECK(r.counts[0] == 1000 - static_cast<std::int64_t>(kWrap48));
}

TEST_CASE("stub: a 64-bit counter needs no extension") {
    EmulatedPmu pmu(64);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e = pmu.add_event(0, ~std::uint64_t{0} - 3);
    SimBody body;
    body.pmu = &pmu;
    body.per_iteration[e] = 2;
    auto stub = glint::test::must_emit(x86::emit_bracket_stub(pmu.layout({e}), x86::CallBody{}));
    x86::BracketRecord r;
    (*stub)(&SimBody::run, &body, 50, &r);
    CHECK(r.counts[0] == 100);
}

namespace {
struct TickCtx {
    EmulatedPmu* pmu;
    std::int64_t per_copy;
};
void tick(void* ctx) {
    auto* t = static_cast<TickCtx*>(ctx);
    t->pmu->advance_all(t->per_copy);
}
}  // namespace

TEST_CASE("stub: an inline body is unrolled U times per trip, n trips, exact after calibration") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    pmu.add_event(0, kWrap48 - 50);
    pmu.add_event(3);
    pmu.set_read_cost(4);
    TickCtx ctx{&pmu, 5};
    x86::InlineBody body;
    body.unroll = 8;
    body.emit = [](Xbyak::CodeGenerator& g) {  // one copy: tick(ctx), ctx in r14
        g.mov(g.rdi, g.r14);
        g.mov(g.rax, reinterpret_cast<std::uint64_t>(&tick));
        g.call(g.rax);
    };
    auto stub = glint::test::must_emit(x86::emit_bracket_stub(pmu.layout({0, 1}), body));
    CHECK(stub->unroll() == 8);
    const x86::BracketCost cost =
        x86::min_cost(glint::test::empty_brackets(*stub, 4, nullptr, &ctx), 2);
    CHECK(cost.counts[0] == 12);
    CHECK(cost.counts[1] == 4);
    x86::BracketRecord r;
    (*stub)(nullptr, &ctx, 25, &r);
    CHECK(x86::per_iteration(static_cast<double>(r.counts[0]), cost.counts[0], 25 * 8) == 5);
    CHECK(x86::per_iteration(static_cast<double>(r.counts[1]), cost.counts[1], 25 * 8) == 5);
}

TEST_CASE("stub: asynchronous kernel updates never produce a torn value") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    pmu.add_event(0, kWrap48 - 3);
    pmu.add_event(1, kWrap48 - 1000);
    pmu.add_event(2);
    SimBody body;
    body.pmu = &pmu;
    body.per_iteration[0] = 1;
    body.per_iteration[1] = 2;
    body.per_iteration[2] = 3;
    auto stub =
        glint::test::must_emit(x86::emit_bracket_stub(pmu.layout({0, 1, 2}), x86::CallBody{}));

    glint::test::AsyncKernel::Options options;
    options.move_events = true;
    options.spare_counter = 6;
    glint::test::AsyncKernel kernel(pmu, options);
    std::uint64_t retries = 0, slow = 0, wrong = 0, brackets = 0;
    // Run until the kernel has interfered inside reads many times (bounded).
    while (brackets < 20000 && (retries < 50 || kernel.updates() < 500)) {
        const std::uint64_t n = 1 + brackets % 37;
        x86::BracketRecord r;
        stub->operator()(&SimBody::run, &body, n, &r);
        for (int i = 0; i < 3; ++i) {
            if (r.counts[i] != static_cast<std::int64_t>(n) * (i + 1)) ++wrong;
        }
        retries += r.retries;
        slow += r.slow_reads;
        ++brackets;
    }
    kernel.stop();
    MESSAGE("brackets " << brackets << ", kernel updates " << kernel.updates() << ", retries "
                        << retries << ", slow reads " << slow << ", wrong " << wrong);
    CHECK(wrong == 0);
    CHECK(retries >= 50);
    CHECK(slow > 0);
    // (A read can latch a counter the kernel has just emptied; the lock check discards it,
    // so bad_reads() may be non-zero here: what matters is that no delta was wrong.)
}
