// The stubs against an emulated "instructions retired" counter that counts every user
// instruction the thread really executes (single-stepping): the bracket's own instruction
// count by execution, and exact per-iteration counts of real code after calibration.
#include <xbyak/xbyak.h>

#include "support/stub_rig.hpp"

namespace x86 = glint::arch::x86_64;
using glint::test::EmulatedPmu;
using glint::test::Stepping;

namespace {

// run(ctx, n): `test rsi, rsi; jz done; loop: add rax, 1; dec rsi; jnz loop; done: ret`
// 3 instructions per iteration, 3 per call (n = 0 included).
struct ThreePerIteration : Xbyak::CodeGenerator {
    ThreePerIteration() {
        Xbyak::Label loop, done;
        test(rsi, rsi);
        jz(done);
        L(loop);
        add(rax, 1);
        dec(rsi);
        jnz(loop);
        L(done);
        ret();
    }
    x86::BracketStub::Run fn() const { return getCode<x86::BracketStub::Run>(); }
};

[[gnu::noinline]] void stepped(const x86::BracketStub& stub, x86::BracketStub::Run run, void* ctx,
                               std::uint64_t n, x86::BracketRecord* r, EmulatedPmu& pmu) {
    Stepping step(pmu);
    stub(run, ctx, n, r);
}

// Instructions a k-counter stub retires between counter `slot`'s start and end rdpmc, for a
// body of `body` instructions, per the emitted sequence (a 48-bit read is 16 instructions:
// 7 before rdpmc, rdpmc, 8 after; a TSC read with its fence is 5, or 6 with lfence+rdtsc;
// the call body is 3 plus the callee).
std::int64_t expected_self_cost(std::size_t k, std::size_t slot, std::int64_t body,
                                x86::Serialization s) {
    const std::int64_t later_reads = 16 * static_cast<std::int64_t>(k - 1 - slot);
    const std::int64_t end_tsc = s == x86::Serialization::rdtscp ? 5 : 6;
    return 1 + 8 + later_reads + 5 + 3 + body + end_tsc + later_reads + 7;
}

}  // namespace

TEST_CASE("instructions by execution: the default group's bracket and exact per-iteration counts") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    // The default group's six hardware counters; instructions is slot 1, after cycles.
    for (std::uint32_t c = 0; c < 6; ++c) pmu.add_event(c, (std::uint64_t{1} << 48) - 500);
    pmu.count_user_instructions(1);
    auto stub = glint::test::must_emit(
        x86::emit_bracket_stub(pmu.layout({0, 1, 2, 3, 4, 5}), x86::CallBody{}));
    ThreePerIteration body;

    std::vector<x86::BracketRecord> empties(3);
    for (auto& r : empties) stepped(*stub, body.fn(), nullptr, 0, &r, pmu);
    const x86::BracketCost cost = x86::min_cost(empties, 6);
    const std::int64_t self = expected_self_cost(6, 1, 3, stub->serialization());
    CHECK(self == 160);  // with rdtscp
    CHECK(cost.counts[1] == self);
    MESSAGE(
        "instructions retired between the two reads of the instructions counter "
        "(6-counter stub, 3-instruction empty body): "
        << cost.counts[1]);
    for (const auto& r : empties) CHECK(r.counts[1] == self);  // exact: every run identical

    x86::BracketRecord r;
    stepped(*stub, body.fn(), nullptr, 500, &r, pmu);  // batched
    CHECK(x86::per_iteration(static_cast<double>(r.counts[1]), cost.counts[1], 500) == 3);
    for (int rep = 0; rep < 3; ++rep) {  // unbatched
        stepped(*stub, body.fn(), nullptr, 1, &r, pmu);
        CHECK(x86::per_iteration(static_cast<double>(r.counts[1]), cost.counts[1], 1) == 3);
    }
}

TEST_CASE("instructions by execution: the apparatus around the first counter of a 6-counter stub") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    for (std::uint32_t c = 0; c < 6; ++c) pmu.add_event(c);
    pmu.count_user_instructions(0);
    auto stub = glint::test::must_emit(
        x86::emit_bracket_stub(pmu.layout({0, 1, 2, 3, 4, 5}), x86::CallBody{}));
    ThreePerIteration body;
    x86::BracketRecord r;
    stepped(*stub, body.fn(), nullptr, 0, &r, pmu);
    CHECK(r.counts[0] == expected_self_cost(6, 0, 3, stub->serialization()));
    MESSAGE("slot 0 of a 6-counter stub sees " << r.counts[0]
                                               << " instructions (empty 3-instruction body)");
}

TEST_CASE("instructions by execution: U versus 2U isolates one inline instruction exactly") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    pmu.add_event(0);
    pmu.add_event(1);
    pmu.count_user_instructions(1);
    auto make = [&](std::uint32_t unroll) {
        x86::InlineBody body;
        body.unroll = unroll;
        body.emit = [](Xbyak::CodeGenerator& g) { g.imul(g.rax, g.rax); };  // a dependent chain
        return glint::test::must_emit(x86::emit_bracket_stub(pmu.layout({0, 1}), body));
    };
    auto u = make(10);
    auto u2 = make(20);
    x86::BracketRecord ru, ru2, empty;
    stepped(*u, nullptr, nullptr, 40, &ru, pmu);
    stepped(*u2, nullptr, nullptr, 40, &ru2, pmu);
    CHECK(x86::per_copy(static_cast<double>(ru.counts[1]), static_cast<double>(ru2.counts[1]), 40,
                        10) == 1);
    // Min-of-empty calibration keeps the loop's dec/jnz: (10 + 2) / 10 per copy.
    stepped(*u, nullptr, nullptr, 0, &empty, pmu);
    CHECK(x86::per_iteration(static_cast<double>(ru.counts[1]),
                             static_cast<double>(empty.counts[1]), 400) == 1.2);
}
