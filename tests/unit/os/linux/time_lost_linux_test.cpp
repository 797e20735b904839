// Reading steal and run delay (os/time_lost.hpp) from a fake procfs, and from this kernel's.
#include <doctest/doctest.h>

#include <unistd.h>

#include "os/time_lost.hpp"
#include "support/fake_tree.hpp"

using namespace glint::os;

TEST_CASE("time lost: steal and run delay are read from the given proc root") {
    glint::test::FakeTree tree;
    tree.write("stat", "cpu  1 2 3 4 5 6 7 40 0 0\ncpu0 1 2 3 4 5 6 7 40 0 0\n");
    tree.write("thread-self/schedstat", "100 2500 3\n");
    const SystemRoots roots{tree.root() + "/sys", tree.root()};
    const StealReading steal = read_steal(roots);
    REQUIRE(steal.ok);
    CHECK(steal.all == 40);
    CHECK(steal.tick_ns == 1'000'000'000 / ::sysconf(_SC_CLK_TCK));
    const RunDelayReading delay = read_run_delay(roots);
    REQUIRE(delay.ok);
    CHECK(delay.ns == 2500);
}

TEST_CASE("time lost: missing files are unknown with the path and why") {
    glint::test::FakeTree tree;
    const SystemRoots roots{tree.root() + "/sys", tree.root()};
    const StealReading steal = read_steal(roots);
    CHECK_FALSE(steal.ok);
    CHECK(steal.why == tree.root() + "/stat does not exist");
    const RunDelayReading delay = read_run_delay(roots);
    CHECK_FALSE(delay.ok);
    CHECK(delay.why.find(tree.root() + "/thread-self/schedstat does not exist") == 0);
    CHECK(delay.why.find("CONFIG_SCHED_INFO") != std::string::npos);
    tree.mkdir("stat");  // a directory where the file should be: unreadable, with the errno
    CHECK(read_steal(roots).why.find("/stat is unreadable: ") != std::string::npos);
}

TEST_CASE("time lost: this kernel's files, where it has them, read as counters") {
    const StealReading steal = read_steal(SystemRoots{});
    const RunDelayReading delay = read_run_delay(SystemRoots{});
    INFO(steal.why << " / " << delay.why);
    if (steal.ok) {
        CHECK(steal.tick_ns > 0);
        CHECK_FALSE(steal.per_cpu.empty());
    }
    if (delay.ok) CHECK(read_run_delay(SystemRoots{}).ns >= delay.ns);  // monotonic
    CHECK((steal.ok || !steal.why.empty()));
    CHECK((delay.ok || !delay.why.empty()));
}
