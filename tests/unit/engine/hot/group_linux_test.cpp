// <glint/hot.hpp> on the real kernel of the machine running the tests: software events always
// open (their pages never grant a user read, so reads are read(2)); hardware events open where a
// PMU exists and otherwise say why.
#include <doctest/doctest.h>

#include <glint/hot.hpp>

#include <sys/mman.h>

#include <cstring>
#include <string>

#include "support/known_loop.hpp"
#include "support/skip.hpp"

using glint::hot::Group;
using glint::hot::Path;

TEST_CASE("hot group: software events count page faults between two reads") {
    Group g({"page-faults", "task-clock"});
    static_assert(decltype(g)::size() == 2);
    REQUIRE_MESSAGE(g.ok(), g.status().reason);
    CHECK(g.path() == Path::syscall);  // kernel counters: no user read exists for them
    CHECK(std::string(g.status().reason).find("page-faults, task-clock") == 0);
    constexpr std::size_t kPages = 64;
    const std::size_t page = 4096;
    void* memory =
        mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(memory != MAP_FAILED);
    const auto before = g.read();
    for (std::size_t i = 0; i < kPages; ++i) static_cast<volatile char*>(memory)[i * page] = 1;
    const auto d = g.read() - before;
    munmap(memory, kPages * page);
    CHECK(d.counts[0] >= static_cast<std::int64_t>(kPages));
    CHECK(d.counts[1] > 0);  // task-clock: nanoseconds on CPU
    CHECK(d.ticks > 0);
    // The cost of an empty read pair: no page fault (the median pair faults none), the CPU time
    // of the read(2) it makes, and less of it than 64 page faults beside that read.
    const auto cost = g.read_cost();
    CHECK(cost.counts[0] == 0);
    CHECK(cost.counts[1] > 0);
    CHECK(cost.counts[1] < d.counts[1]);
    CHECK(cost.ticks > 0);
    CHECK(g.failed_reads() == 0);
}

TEST_CASE("hot group: without a PMU, hardware events do not open and say why") {
    Group g({"cycles", "instructions"});
    if (g.ok())
        return glint::test::skip(std::string("this host has a PMU, the hardware group opened: ") +
                                 g.status().reason);
    CHECK(g.path() == Path::none);
    CHECK(std::strlen(g.status().reason) > 0);
    MESSAGE("no hardware group here: " << g.status().reason << " — " << g.status().remedy);
}

// On a host with a PMU: the instructions between two reads around a loop of known length. The
// reads themselves (and, on the syscall path or with kernel counting, a few thousand kernel
// instructions) are far below 1% of 10 million.
TEST_CASE("hot group: with a PMU, a known loop's instructions are counted within 1%") {
    if (!glint::test::known_loop_available())
        return glint::test::skip("no loop of known instruction count for this architecture");
    Group g({"cycles", "instructions"});
    if (!g.ok())
        return glint::test::skip(std::string("no hardware group here: ") + g.status().reason);
    CHECK(g.path() != Path::none);
    constexpr std::uint64_t kPasses = 2'000'000;
    const auto before = g.read();
    glint::test::known_loop(nullptr, kPasses);
    const auto d = g.read() - before;
    const double expected = static_cast<double>(glint::test::kKnownLoopPass * kPasses);
    CHECK(d.counts[0] > 0);  // cycles
    CHECK(static_cast<double>(d.counts[1]) == doctest::Approx(expected).epsilon(0.01));
    MESSAGE("hardware group (" << g.status().reason << "): " << d.counts[1] << " instructions for "
                               << expected << " known");
}
