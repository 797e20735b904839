// The process's threads from /proc (os/process_tasks.hpp): the parsers, a synthetic task
// directory, and this process with a named spinning thread of its own.
#include <doctest/doctest.h>

#include <pthread.h>

#include <atomic>
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

TEST_CASE(
    "os threads: schedstat's first field is the CPU time in ns, stat's utime + stime in ticks") {
    CHECK(linux_::parse_schedstat_ns("123456789 2000 15\n") == 123456789);
    CHECK_FALSE(linux_::parse_schedstat_ns(""));
    CHECK_FALSE(linux_::parse_schedstat_ns("x 1 2"));
    CHECK_FALSE(linux_::parse_schedstat_ns("12x 1 2"));
    // A comm with spaces and a parenthesis; utime 7, stime 3 at 100 ticks a second: 100 ms.
    const std::string stat = "4711 (a (b) c) R 1 2 3 4 5 6 7 8 9 10 7 3 0 0 20 0 1 0 5";
    CHECK(linux_::parse_stat_cpu_ns(stat, 100) == 100'000'000);
    CHECK_FALSE(linux_::parse_stat_cpu_ns("4711 (x) R 1 2", 100));  // cut short
    CHECK_FALSE(linux_::parse_stat_cpu_ns("no comm at all", 100));
}

TEST_CASE("os threads: a task directory lists each numeric entry with its name and CPU time") {
    glint::test::TempDir dir("glint-tasks");
    const auto task = [&](const std::string& tid, const char* comm, const char* schedstat,
                          const char* stat) {
        std::filesystem::create_directory(dir.file(tid));
        if (comm) std::ofstream(dir.file(tid + "/comm")) << comm << "\n";
        if (schedstat) std::ofstream(dir.file(tid + "/schedstat")) << schedstat << "\n";
        if (stat) std::ofstream(dir.file(tid + "/stat")) << stat << "\n";
    };
    task("12", "worker", "5000 1 1", nullptr);
    task("9", "main", nullptr, "9 (main) S 1 2 3 4 5 6 7 8 9 10 1 1 0 0");  // no schedstat: stat
    task("30", nullptr, nullptr, nullptr);                                  // ended: files gone
    std::filesystem::create_directory(dir.file("not-a-task"));
    const TaskCensus census = linux_::read_task_dir(dir.path.string());
    CHECK(census.ok);
    REQUIRE(census.tasks.size() == 3);
    CHECK(census.tasks[0].tid == 9);
    CHECK(census.tasks[0].name == "main");
    CHECK(census.tasks[0].cpu_ns > 0);  // two ticks, whatever a tick is here
    CHECK(census.tasks[0].settled_ns == -1);
    CHECK(census.tasks[1].tid == 12);
    CHECK(census.tasks[1].name == "worker");
    CHECK(census.tasks[1].cpu_ns == 5000);
    CHECK(census.tasks[1].settled_ns == 5000);
    CHECK(census.tasks[2].tid == 30);
    CHECK(census.tasks[2].name.empty());
    CHECK(census.tasks[2].cpu_ns == -1);
    CHECK_FALSE(linux_::read_task_dir(dir.file("absent")).ok);
}

TEST_CASE("os threads: this process lists a named spinning thread, its CPU time growing") {
    std::atomic<bool> stop{false};
    std::atomic<long> spinner_tid{0};
    std::thread spinner([&] {
        pthread_setname_np(pthread_self(), "glint-spinner");
        spinner_tid = thread_id();
        std::uint64_t x = 0;
        while (!stop.load(std::memory_order_relaxed)) x = x * 3 + 1;
        (void)x;
    });
    while (spinner_tid.load() == 0) std::this_thread::yield();
    const auto find = [&](const TaskCensus& c) -> const TaskUsage* {
        for (const auto& t : c.tasks)
            if (t.tid == spinner_tid.load()) return &t;
        return nullptr;
    };
    const TaskCensus before = process_tasks();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    const TaskCensus after = process_tasks();
    stop = true;
    spinner.join();
    REQUIRE(before.ok);
    const TaskUsage* first = find(before);
    const TaskUsage* second = find(after);
    REQUIRE(first);
    REQUIRE(second);
    CHECK(second->name == "glint-spinner");
    CHECK(second->cpu_ns > first->cpu_ns);  // it ran in between (some CPU, however loaded)
    if (second->settled_ns >= 0)  // schedstat there: behind the thread's clock, read after it
        CHECK(second->settled_ns <= second->cpu_ns);
    bool self = false;
    for (const auto& t : after.tasks) self = self || t.tid == thread_id();
    CHECK(self);
    CHECK(thread_id() != spinner_tid.load());
}
