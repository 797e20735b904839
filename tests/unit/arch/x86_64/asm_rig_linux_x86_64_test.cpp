// Instruction-level cases (<glint/asm.hpp>) under the emulated x86 PMU: the engine's rdpmc
// bracket stub around the very functions asm_iter emits, against an "instructions retired"
// counter that counts every user instruction the thread executes (single-stepping). The loop
// is what the emitter says it is, and the difference of the two unroll counts is exactly the
// body's instructions: what the engine's per-instruction counts divide.
#include <glint/asm.hpp>

#include <cstdint>
#include <string>

#include "support/stub_rig.hpp"

namespace x86 = glint::arch::x86_64;
using glint::test::EmulatedPmu;
using glint::test::Stepping;

namespace {

void run_asm(void* fn, std::uint64_t trips) {
    static_cast<glint::detail::AsmFunction*>(fn)->fn(trips);
}

[[gnu::noinline]] std::int64_t instructions(const x86::BracketStub& stub,
                                            glint::detail::AsmFunction& fn, std::uint64_t trips,
                                            EmulatedPmu& pmu) {
    x86::BracketRecord r;
    {
        Stepping step(pmu);
        stub(run_asm, &fn, trips, &r);
    }
    return r.counts[1];
}

}  // namespace

TEST_CASE(
    "asm rig: the rdpmc bracket counts an emitted body's instructions exactly, at both unrolls") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    pmu.add_event(0);
    pmu.add_event(1);
    pmu.count_user_instructions(1);
    auto stub = glint::test::must_emit(x86::emit_bracket_stub(pmu.layout({0, 1}), x86::CallBody{}));
    const auto three = [](Xbyak::CodeGenerator& g, const Xbyak::Reg64& r) {
        g.add(r, r);
        g.imul(r, r);
        g.xor_(r, g.r10);
    };
    for (const bool wide : {false, true}) {
        glint::AsmCase c{.body = three, .instructions = 3, .unroll_short = 5, .unroll_long = 12};
        if (wide) c.chains = glint::kIndependentChains;
        const std::int64_t per_trip_copies = static_cast<std::int64_t>(c.chains.size()) * 3;
        glint::detail::AsmFunction shorter(c, c.unroll_short), longer(c, c.unroll_long);
        constexpr std::uint64_t kTrips = 3;
        const std::int64_t long1 = instructions(*stub, longer, 1, pmu);
        const std::int64_t longn = instructions(*stub, longer, kTrips, pmu);
        const std::int64_t shortn = instructions(*stub, shorter, kTrips, pmu);
        const std::string chains = wide ? "8 chains" : "1 chain";
        INFO(chains << ": 1 trip of 12 copies " << long1 << ", 3 trips " << longn
                    << ", 3 trips of 5 copies " << shortn);
        // A trip: the unrolled copies, then dec r15 and jnz (the alignment nops before the loop
        // run once a call, and only when there is a trip).
        CHECK(longn - long1 == static_cast<std::int64_t>(kTrips - 1) * (12 * per_trip_copies + 2));
        // What asm_iter divides by the span: (12 - 5) copies x chains x 3 instructions a trip.
        CHECK(longn - shortn == static_cast<std::int64_t>(kTrips) * 7 * per_trip_copies);
        MESSAGE("emitted body (" << chains
                                 << ", 3 instructions a copy) "
                                    "counted by the rdpmc bracket: "
                                 << (longn - shortn)
                                 << " instructions between "
                                    "12 and 5 copies over 3 trips, exactly 3 x 7 x "
                                 << per_trip_copies);
    }
}
