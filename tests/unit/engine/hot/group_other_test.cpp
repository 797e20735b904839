// <glint/hot.hpp> in a build for an OS without a counter back end (GLINT_OS=other): a group
// never opens and says why; its reads are kNotRead, never a count of 0.
#include <doctest/doctest.h>

#include <glint/hot.hpp>

#include <string>
#include <thread>

using glint::hot::Group;
using glint::hot::kNotRead;
using glint::hot::Path;

TEST_CASE("hot group off Linux: nothing opens, the status says why, reads are never 0") {
    Group g({"page-faults", "task-clock"});
    CHECK_FALSE(g.ok());
    CHECK(g.path() == Path::none);
    CHECK(std::string(g.status().reason).find("not available here") != std::string::npos);
    const auto s = g.read();
    for (std::int64_t count : s.counts) CHECK(count == kNotRead);
    const auto c = g.read_counts();
    for (std::int64_t count : c.counts) CHECK(count == kNotRead);
    CHECK(g.read_cost().counts[0] == 0);  // not calibrated: nothing to subtract
    // Another thread's read is refused here too (nothing would be read anyway), and counted.
    glint::hot::Snapshot<2> other{};
    std::thread([&] { other = g.read(); }).join();
    for (std::int64_t count : other.counts) CHECK(count == kNotRead);
    CHECK(g.wrong_thread_reads() == 1);
    CHECK(g.thread_status().refused == 1);
}
