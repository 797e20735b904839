// <glint/asm.hpp>'s batch as the runner's session receives it: a difference (run and
// reference) whose span, the instructions one sample's pair differs by per loop trip, is the
// unroll difference x instructions per copy x chains (what each time and count is divided by).
#include <doctest/doctest.h>

#include <glint/asm.hpp>

#include <cstdint>

#include "engine/runner/session.hpp"
#include "support/capturing_session.hpp"

TEST_CASE("asm_iter: the span is the unroll difference x instructions per copy x chains") {
    glint::test::CapturingSession session;
    glint::engine::SessionScope scope(session);
    const auto three = [](Xbyak::CodeGenerator& g, const Xbyak::Reg64& r) {
        g.add(r, r);
        g.imul(r, r);
        g.xor_(r, g.r10);
    };
    glint::asm_iter({.body = three, .instructions = 3, .unroll_short = 5, .unroll_long = 12});
    glint::AsmCase wide{.body = three, .instructions = 3, .unroll_short = 4, .unroll_long = 20};
    wide.chains = glint::kIndependentChains;
    glint::asm_iter(wide);
    REQUIRE(session.batches.size() == 2);
    for (const auto& b : session.batches) {
        CHECK(bool(b.run));
        CHECK(bool(b.reference));  // the difference method
    }
    CHECK(session.batches[0].span == 7 * 3);
    CHECK(session.batches[1].span == std::uint64_t{16} * 3 * glint::kIndependentChains.size());
}
