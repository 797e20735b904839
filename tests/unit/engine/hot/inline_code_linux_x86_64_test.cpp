// The code the compiler emits for an inline <glint/hot.hpp> read, inspected with objdump: rdpmc
// is there, the path that reads every counter first time makes no call, and its only
// conditional branches are the seqlock retry and jumps to the out-of-line fallback. The
// instruction counts of those paths (what a read costs in instructions when nothing retries)
// are asserted exactly against tests/support/headline_costs.hpp, which docs/hot-loop.md quotes.
#include <doctest/doctest.h>

#include <string>

#include "disassembly.hpp"
#include "probes.hpp"
#include "support/headline_costs.hpp"

using glint::test::FastPath;
namespace headline = glint::test::headline;

namespace {

FastPath fast_path_of(const char* symbol) {
    std::string error;
    auto code = glint::test::disassemble(symbol, error);
    REQUIRE_MESSAGE(!code.empty(), error);
    return FastPath(std::move(code));
}

}  // namespace

TEST_CASE("hot emitted code: one read of {cycles, instructions}") {
    const FastPath p = fast_path_of("glint_hot_probe_read");
    REQUIRE_MESSAGE(p.found(), "no call-free path from the entry to a ret");
    INFO("fast path:\n" << p.listing());
    CHECK(p.count("rdpmc") == 2);
    CHECK(p.count("lfence") == 1);
    CHECK(p.count("rdtsc") == 1);
    CHECK(p.unexplained_branch() == "");
    CHECK(p.path().size() == headline::kX86HotRead.instructions);
    MESSAGE(
        "x86 hot read (2 counters + TSC), fast path of glint_hot_probe_read (entry to ret, "
        "storing the snapshot): "
        << p.path().size() << " instructions");
}

TEST_CASE("hot emitted code: a read pair of {cycles, instructions}") {
    const FastPath p = fast_path_of("glint_hot_probe_pair");
    REQUIRE_MESSAGE(p.found(), "no call-free path from the entry to a ret");
    INFO("fast path:\n" << p.listing());
    CHECK(p.count("rdpmc") == 4);
    CHECK(p.count("lfence") == 2);
    CHECK(p.count("rdtsc") == 2);
    CHECK(p.unexplained_branch() == "");
    const FastPath nothing = fast_path_of("glint_hot_probe_nothing");
    REQUIRE(nothing.found());
    CHECK(p.path().size() == headline::kX86HotReadPair.instructions);
    MESSAGE("x86 hot read pair (2 counters + TSC each), fast path of glint_hot_probe_pair: "
            << p.path().size() << " instructions (an empty probe: " << nothing.path().size()
            << ")");
}

TEST_CASE("hot emitted code: a read_counts pair (no timestamp)") {
    const FastPath p = fast_path_of("glint_hot_probe_counts_pair");
    REQUIRE_MESSAGE(p.found(), "no call-free path from the entry to a ret");
    INFO("fast path:\n" << p.listing());
    CHECK(p.count("rdpmc") == 4);
    CHECK(p.count("lfence") == 2);
    CHECK(p.count("rdtsc") == 0);
    CHECK(p.unexplained_branch() == "");
    CHECK(p.path().size() == headline::kX86HotCountsPair.instructions);
    MESSAGE("x86 hot read_counts pair (2 counters each), fast path of glint_hot_probe_counts_pair: "
            << p.path().size() << " instructions");
}
