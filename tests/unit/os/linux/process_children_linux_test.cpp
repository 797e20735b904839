// This process's child processes not yet waited for (os/process_tasks.hpp, process_children):
// the parsers, a synthetic /proc, and a forked child of this process, spinning, then a zombie.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "os/linux/proc_tasks.hpp"
#include "os/process.hpp"
#include "os/process_tasks.hpp"
#include "support/temp_dir.hpp"

using namespace glint::os;

TEST_CASE("os children: a children file's pids, and stat's state and ppid") {
    CHECK(linux_::parse_pid_list("12 345 ") == std::vector<long>{12, 345});
    CHECK(linux_::parse_pid_list("").empty());
    CHECK(linux_::parse_pid_list("7") == std::vector<long>{7});
    const auto head = linux_::parse_stat_head("4711 (a (b) c) Z 42 2 3 4");
    REQUIRE(head);
    CHECK(head->state == 'Z');
    CHECK(head->ppid == 42);
    CHECK_FALSE(linux_::parse_stat_head("4711 (x)"));
    CHECK_FALSE(linux_::parse_stat_head("no comm at all"));
}

TEST_CASE("os children: each thread's children file, else every process whose ppid is this one") {
    glint::test::TempDir dir("glint-children");
    const auto write = [&](const std::string& path, const std::string& text) {
        std::filesystem::create_directories(std::filesystem::path(dir.file(path)).parent_path());
        std::ofstream(dir.file(path)) << text << "\n";
    };
    write("100/stat", "100 (me) R 1 2 3 4 5 6 7 8 9 10 0 0 0 0");
    write("200/stat", "200 (kid) R 100 2 3 4 5 6 7 8 9 10 3 1 0 0");
    write("200/comm", "kid");
    write("300/stat", "300 (dead kid) Z 100 2 3 4 5 6 7 8 9 10 1 0 0 0");
    write("400/stat", "400 (stranger) R 1 2 3 4 5 6 7 8 9 10 9 9 0 0");
    std::filesystem::create_directories(dir.file("100/task/100"));
    std::filesystem::create_directories(dir.file("100/task/101"));
    // No children files: the ppid scan finds 200 and 300, not knowing which thread forked them.
    ChildCensus census = linux_::read_children(dir.path.string(), 100);
    CHECK(census.ok);
    REQUIRE(census.children.size() == 2);
    CHECK(census.children[0].pid == 200);
    CHECK(census.children[0].name == "kid");
    CHECK(census.children[0].cpu_ns > 0);  // 4 ticks, whatever a tick is here
    CHECK_FALSE(census.children[0].exited);
    CHECK(census.children[0].parent_tid == -1);
    CHECK(census.children[1].pid == 300);
    CHECK(census.children[1].exited);
    // The children files: 300 is thread 101's; 999 was reaped since (its stat is gone).
    write("100/task/100/children", "");
    write("100/task/101/children", "300 999 ");
    census = linux_::read_children(dir.path.string(), 100);
    CHECK(census.ok);
    REQUIRE(census.children.size() == 1);
    CHECK(census.children[0].pid == 300);
    CHECK(census.children[0].parent_tid == 101);
    CHECK_FALSE(linux_::read_children(dir.file("absent"), 100).ok);
}

namespace {
const ChildUsage* find_child(const ChildCensus& census, pid_t pid) {
    for (const auto& c : census.children)
        if (c.pid == pid) return &c;
    return nullptr;
}

// Kills and reaps the child however the test ends (a failed REQUIRE too); pid 0: reaped already.
struct Reaper {
    pid_t pid;
    ~Reaper() {
        if (pid <= 0) return;
        int status = 0;
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
};
}  // namespace

TEST_CASE(
    "os children: a forked child is listed spinning, its CPU time growing, then as a zombie") {
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {  // computes only (no allocation: the parent may have other threads)
        volatile std::uint64_t x = 0;
        for (;;) x = x * 3 + 1;
    }
    Reaper reaper{child};
    const ChildCensus first = process_children();
    REQUIRE(first.ok);
    const ChildUsage* was = find_child(first, child);
    REQUIRE(was);
    CHECK(was->parent_tid == static_cast<long>(thread_id()));
    CHECK_FALSE(was->exited);
    CHECK(was->cpu_ns >= 0);
    // It runs, however loaded the machine (up to a minute).
    ChildCensus later;
    const ChildUsage* now = nullptr;
    for (int i = 0; i < 6000; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        later = process_children();
        now = find_child(later, child);
        if (!now || now->cpu_ns > was->cpu_ns) break;
    }
    REQUIRE(now);
    CHECK(now->cpu_ns > was->cpu_ns);
    const std::int64_t ran = now->cpu_ns;
    // Killed, not reaped: a zombie, still listed with the CPU time it used.
    kill(child, SIGKILL);
    siginfo_t info{};
    REQUIRE(waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT) == 0);
    const ChildCensus ended = process_children();
    const ChildUsage* zombie = find_child(ended, child);
    REQUIRE(zombie);
    CHECK(zombie->exited);
    CHECK(zombie->cpu_ns >= ran);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    reaper.pid = 0;
    CHECK_FALSE(find_child(process_children(), child));  // waited for: RUSAGE_CHILDREN's now
}
