// <glint/hot.hpp> on the real kernel of the machine running the tests: software events always
// open (their pages never grant a user read, so reads are read(2)); hardware events open where a
// PMU exists and otherwise say why.
#include <doctest/doctest.h>

#include <glint/hot.hpp>

#include <sys/mman.h>

#include <cstring>
#include <string>

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
    void* memory = mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(memory != MAP_FAILED);
    const auto before = g.read();
    for (std::size_t i = 0; i < kPages; ++i) static_cast<volatile char*>(memory)[i * page] = 1;
    const auto d = g.read() - before;
    munmap(memory, kPages * page);
    CHECK(d.counts[0] >= static_cast<std::int64_t>(kPages));
    CHECK(d.counts[1] > 0);  // task-clock: nanoseconds on CPU
    CHECK(d.ticks > 0);
    CHECK(g.read_cost().counts[0] >= 0);
    CHECK(g.failed_reads() == 0);
}

TEST_CASE("hot group: hardware events open where there is a PMU, else a reason") {
    Group g({"cycles", "instructions"});
    if (g.ok()) {
        CHECK(g.path() != Path::none);
        const auto d = g.read() - g.read();
        (void)d;
        MESSAGE("hardware group opened: " << g.status().reason);
    } else {
        CHECK(g.path() == Path::none);
        CHECK(std::strlen(g.status().reason) > 0);
        MESSAGE("no hardware group here: " << g.status().reason << " — " << g.status().remedy);
    }
}
