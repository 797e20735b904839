// <glint/hot.hpp> across threads, on the real kernel (software events: they always open): a
// Group counts the thread that opened it, and a read on any other thread is refused — every
// count kNotRead, every difference with it partial(), counted by wrong_thread_reads(), and
// thread_status() names both threads and the remedy — never a number.
#include <doctest/doctest.h>

#include <glint/hot.hpp>

#include <unistd.h>

#include <string>
#include <thread>

using glint::hot::Counts;
using glint::hot::Group;
using glint::hot::kNotRead;
using glint::hot::Snapshot;
using glint::hot::ThreadStatus;

namespace {

bool contains(const char* text, const std::string& part) {
    return std::string(text).find(part) != std::string::npos;
}

template <std::size_t N>
bool not_read(const std::int64_t (&counts)[N]) {
    for (const std::int64_t c : counts)
        if (c != kNotRead) return false;
    return true;
}

}  // namespace

TEST_CASE("hot threads: a read on another thread is refused and says why, the owner still reads") {
    Group g({"page-faults", "task-clock"});
    REQUIRE_MESSAGE(g.ok(), g.status().reason);
    const long opener = static_cast<long>(::gettid());
    const Snapshot<2> own = g.read();
    CHECK_FALSE(not_read(own.counts));
    CHECK(g.thread_status().refused == 0);
    CHECK(contains(g.thread_status().reason, "no read was refused"));
    const std::uint64_t syscalls = g.syscall_reads();

    Snapshot<2> s{};
    Counts<2> c{};
    long reader = 0;
    std::thread([&] {
        reader = static_cast<long>(::gettid());
        s = g.read();
        c = g.read_counts();
    }).join();
    CHECK(not_read(s.counts));
    CHECK(s.ticks != 0);  // the timestamp is the CPU's, valid on any thread
    CHECK(not_read(c.counts));
    CHECK(s.descheduled_ns != c.descheduled_ns);  // each refused read its own: see below
    CHECK(g.wrong_thread_reads() == 2);
    CHECK(g.syscall_reads() == syscalls);  // refused before anything was read
    CHECK(g.failed_reads() == 0);

    const ThreadStatus t = g.thread_status();
    INFO(t.reason << " / " << t.remedy);
    CHECK(t.refused == 2);
    CHECK(t.opened_on == opener);
    CHECK(t.last_refused_on == reader);
    CHECK(reader != opener);
    CHECK(contains(t.reason, "2 read(s) refused"));
    CHECK(contains(t.reason, "the last on thread " + std::to_string(reader)));
    CHECK(contains(t.reason, "opened on thread " + std::to_string(opener)));
    CHECK(contains(t.remedy, "one Group per thread"));

    const Snapshot<2> again = g.read();  // the owner is not affected
    CHECK_FALSE(not_read(again.counts));
    CHECK((again - own).counts[1] > 0);  // task-clock ran
    CHECK(g.wrong_thread_reads() == 2);
}

TEST_CASE("hot threads: every difference with a refused read is partial, never a number") {
    Group g({"page-faults", "task-clock"});
    REQUIRE_MESSAGE(g.ok(), g.status().reason);
    const Snapshot<2> own = g.read();
    const Counts<2> own_counts = g.read_counts();
    Snapshot<2> a{}, b{};
    Counts<2> x{}, y{};
    std::thread([&] {
        a = g.read();
        b = g.read();
        x = g.read_counts();
        y = g.read_counts();
    }).join();
    // Both ends refused: counts differ by 0, which partial() flags as not a number.
    CHECK((b - a).partial());
    CHECK((b - a - g.read_cost()).partial());
    CHECK((y - x).partial());
    CHECK((y - x - g.read_counts_cost()).partial());
    // One end refused.
    CHECK((b - own).partial());
    CHECK((own - a).partial());
    CHECK((y - own_counts).partial());
    CHECK(g.wrong_thread_reads() == 4);
}

TEST_CASE("hot threads: a group moved to another thread still counts the thread that opened it") {
    Group g({"page-faults", "task-clock"});
    REQUIRE_MESSAGE(g.ok(), g.status().reason);
    const long opener = static_cast<long>(::gettid());
    Snapshot<2> s{};
    ThreadStatus t;
    std::uint64_t refused = 0;
    std::thread([&, moved = std::move(g)] {
        s = moved.read();
        refused = moved.wrong_thread_reads();
        t = moved.thread_status();
    }).join();
    CHECK(not_read(s.counts));
    CHECK(refused == 1);
    CHECK(t.opened_on == opener);
    // The moved-from group reads nothing anywhere, and has nothing to count it in.
    CHECK(not_read(g.read().counts));
    std::thread([&] { s = g.read(); }).join();
    CHECK(not_read(s.counts));
    CHECK(g.wrong_thread_reads() == 0);
    CHECK(contains(g.thread_status().reason, "moved from"));
}

TEST_CASE("hot threads: one group per thread, each read on its own thread, none refused") {
    std::uint64_t refused[2] = {1, 1};
    std::int64_t task_clock[2] = {0, 0};
    std::thread threads[2];
    for (int i = 0; i < 2; ++i)
        threads[i] = std::thread([&, i] {
            Group<2> mine({"page-faults", "task-clock"});
            if (!mine.ok()) return;
            const Snapshot<2> before = mine.read();
            [[maybe_unused]] volatile int sink = 0;
            for (int k = 0; k < 100000; ++k) sink = k;
            task_clock[i] = (mine.read() - before).counts[1];
            refused[i] = mine.wrong_thread_reads();
        });
    for (auto& t : threads) t.join();
    for (int i = 0; i < 2; ++i) {
        CHECK(refused[i] == 0);
        CHECK(task_clock[i] > 0);
    }
}

TEST_CASE("hot threads: recalibrate on another thread is one refused read, the costs unchanged") {
    Group g({"page-faults", "task-clock"});
    REQUIRE_MESSAGE(g.ok(), g.status().reason);
    const std::int64_t cost = g.read_cost().counts[1];
    const std::int64_t ticks = g.read_cost().ticks;
    std::thread([&] { g.recalibrate(); }).join();
    CHECK(g.wrong_thread_reads() == 1);
    CHECK(g.read_cost().counts[1] == cost);
    CHECK(g.read_cost().ticks == ticks);
}
