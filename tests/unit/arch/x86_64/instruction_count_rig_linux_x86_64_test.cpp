// The stubs against an emulated "instructions retired" counter that counts every user
// instruction the thread really executes (single-stepping): the bracket's own instruction
// count by execution, and exact per-iteration counts of real code after calibration.
#include <ucontext.h>
#include <xbyak/xbyak.h>

#include <cstdint>
#include <string>
#include <vector>

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

constexpr x86::Serialization kBoth[] = {x86::Serialization::rdtscp,
                                        x86::Serialization::lfence_rdtsc};

// The default group's six hardware counters; instructions is slot 1, after cycles. The stub of
// serialization `s` over them, its empty brackets' cost and exact per-iteration counts, checked
// against the emitted sequence (`self`: 160 with rdtscp, 161 with lfence + rdtsc).
void check_default_group(EmulatedPmu& pmu, x86::Serialization s, bool faulting) {
    INFO(std::string(x86::to_string(s)));
    auto stub = glint::test::must_emit(
        x86::emit_bracket_stub(pmu.layout({0, 1, 2, 3, 4, 5}), x86::CallBody{}, s));
    REQUIRE(stub->serialization() == s);
    ThreePerIteration body;
    const std::uint64_t emulated_before = pmu.timestamp_emulations();
    std::vector<x86::BracketRecord> empties(3);
    x86::BracketRecord batched, single[3];
    if (faulting) REQUIRE(glint::test::fault_timestamps(true));
    for (auto& r : empties) stepped(*stub, body.fn(), nullptr, 0, &r, pmu);
    stepped(*stub, body.fn(), nullptr, 500, &batched, pmu);
    for (auto& r : single) stepped(*stub, body.fn(), nullptr, 1, &r, pmu);
    if (faulting) glint::test::fault_timestamps(false);
    const std::uint64_t emulated = pmu.timestamp_emulations() - emulated_before;
    // Each bracket reads the timestamp twice: under fault_timestamps both reads trap (7 brackets).
    if (faulting) CHECK(emulated == 14);
    if (!faulting && s == x86::Serialization::lfence_rdtsc) CHECK(emulated == 0);
    const x86::BracketCost cost = x86::min_cost(empties, 6);
    const std::int64_t self = expected_self_cost(6, 1, 3, s);
    CHECK(self == (s == x86::Serialization::rdtscp ? 160 : 161));
    CHECK(cost.counts[1] == self);
    MESSAGE(
        "instructions retired between the two reads of the instructions counter "
        "(6-counter stub, 3-instruction empty body, "
        << std::string(x86::to_string(s)) << ", timestamp reads emulated: " << emulated
        << "): " << cost.counts[1]);
    for (const auto& r : empties) CHECK(r.counts[1] == self);  // exact: every run identical
    CHECK(x86::per_iteration(static_cast<double>(batched.counts[1]), cost.counts[1], 500) == 3);
    for (const auto& r : single)  // unbatched
        CHECK(x86::per_iteration(static_cast<double>(r.counts[1]), cost.counts[1], 1) == 3);
    for (const auto& r : empties) CHECK(r.tsc > 0);  // the timestamp moved across the bracket
}

}  // namespace

// Both serializations on any host: lfence + rdtsc runs everywhere, and rdtscp where the CPU
// lacks it is emulated by the rig (SIGILL), so neither half depends on the machine.
TEST_CASE("instructions by execution: the default group's bracket and exact per-iteration counts") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    for (std::uint32_t c = 0; c < 6; ++c) pmu.add_event(c, (std::uint64_t{1} << 48) - 500);
    pmu.count_user_instructions(1);
    for (const x86::Serialization s : kBoth) check_default_group(pmu, s, false);
    MESSAGE("this CPU serializes with "
            << std::string(x86::to_string(x86::native_serialization())));
}

// The rig's emulation of timestamp reads, forced on a host that has rdtscp: under
// fault_timestamps every rdtsc and rdtscp traps and the rig emulates it, and the counts are the
// same as executed (the path a CPU without rdtscp takes for the rdtscp stub).
TEST_CASE("instructions by execution: both serializations with every timestamp read emulated") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    if (!glint::test::fault_timestamps(true) || !glint::test::fault_timestamps(false))
        return glint::test::skip(
            "prctl(PR_SET_TSC, PR_TSC_SIGSEGV) is refused here, so timestamp reads cannot be made "
            "to fault: the emulation of rdtscp is not exercised on this host");
    for (std::uint32_t c = 0; c < 6; ++c) pmu.add_event(c, (std::uint64_t{1} << 48) - 500);
    pmu.count_user_instructions(1);
    for (const x86::Serialization s : kBoth) check_default_group(pmu, s, true);
}

TEST_CASE("emulated timestamp reads: rdtsc and rdtscp decoded at rip, anything else left alone") {
    EmulatedPmu pmu(48);
    const std::uint8_t code[] = {0x0F, 0x01, 0xF9, 0x0F, 0x31, 0x0F, 0x33, 0x90};
    ucontext_t uc{};
    greg_t* regs = uc.uc_mcontext.gregs;
    const auto at = [&](std::size_t i) {
        return static_cast<greg_t>(reinterpret_cast<std::uintptr_t>(code + i));
    };
    const auto value = [&] {
        return (static_cast<std::uint64_t>(regs[REG_RDX]) << 32) |
               static_cast<std::uint64_t>(regs[REG_RAX]);
    };
    regs[REG_RIP] = at(0);
    regs[REG_RCX] = -1;
    REQUIRE(pmu.emulate_timestamp(&uc, true));  // rdtscp, read from the TSC
    CHECK(regs[REG_RIP] == at(3));
    CHECK((static_cast<std::uint64_t>(regs[REG_RCX]) >> 24) == 0);  // TSC_AUX: node, CPU
    const std::uint64_t first = value();
    CHECK(first > 0);
    regs[REG_RCX] = 7;
    REQUIRE(pmu.emulate_timestamp(&uc, false));  // rdtsc, from the clock
    CHECK(regs[REG_RIP] == at(5));
    CHECK(regs[REG_RCX] == 7);  // rdtsc leaves ECX alone
    CHECK(value() > 0);
    CHECK_FALSE(pmu.emulate_timestamp(&uc, true));  // rdpmc: not a timestamp read
    CHECK(regs[REG_RIP] == at(5));
    regs[REG_RIP] = at(7);
    CHECK_FALSE(pmu.emulate_timestamp(&uc, false));  // nop
    CHECK(pmu.timestamp_emulations() == 2);
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
