// Under --perf-inherit, the threads alive when the counters opened (engine/tiers/
// preexisting_threads.hpp), for real on this kernel: a group opened on another thread of the
// process counts that thread's CPU time between the reads around a pass.
#include <doctest/doctest.h>

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "engine/tiers/preexisting_threads.hpp"
#include "os/process.hpp"
#include "os/process_tasks.hpp"

using namespace glint::engine;

namespace {

// The CPU time the process's census gives thread `tid`; -1 when it is not listed.
std::int64_t cpu_of(long tid) {
    for (const auto& t : glint::os::process_tasks().tasks)
        if (t.tid == tid) return t.cpu_ns;
    return -1;
}

}  // namespace

TEST_CASE(
    "real: pre-existing threads: a group on another thread counts its CPU time around a pass") {
    std::atomic<bool> stop{false};
    std::atomic<long> tid{0};
    std::thread spinner([&] {
        pthread_setname_np(pthread_self(), "pre-spin");
        tid = glint::os::thread_id();
        while (!stop.load(std::memory_order_relaxed)) {}
    });
    while (tid.load() == 0) std::this_thread::yield();
    PreexistingThreads others;
    others.open(
        glint::os::GroupSpec{{glint::os::Event::task_clock, glint::os::Event::page_faults}});
    REQUIRE(others.any_counted());
    const Json coverage = others.coverage();
    bool listed = false;
    for (const Json& t : coverage.at("preExisting").as_array())
        listed = listed ||
                 (t.at("tid").as_number() == tid.load() && t.at("name").as_string() == "pre-spin");
    CHECK(listed);
    for (const Json& t : coverage.at("preExisting").as_array())
        CHECK(t.at("tid").as_number() !=
              glint::os::thread_id());  // the measuring thread is not among them
    const std::int64_t before = cpu_of(tid);
    others.begin();
    std::this_thread::sleep_for(
        std::chrono::milliseconds(30));  // the spinner runs, this thread does not
    const counting::PerIteration per = others.end(1000);
    const std::int64_t after = cpu_of(tid);
    stop = true;
    spinner.join();
    REQUIRE(per.size == 2);
    REQUIRE(before >= 0);
    REQUIRE(after > before);
    // task-clock over 1000 iterations: at least half the spinner's CPU time between the reads.
    CHECK(per.values[0] * 1000 >= 0.5 * static_cast<double>(after - before));
    CHECK(per.values[0] > 0);
}

TEST_CASE(
    "real: pre-existing threads: beyond the limit a thread is missed, with the reason, not "
    "opened") {
    std::atomic<bool> stop{false};
    std::vector<std::thread> sleepers;
    for (std::size_t i = 0; i < kMaxPreexisting + 2; ++i)
        sleepers.emplace_back([&] {
            while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
    PreexistingThreads others;
    others.open(glint::os::GroupSpec{{glint::os::Event::task_clock}});
    const Json coverage = others.coverage();
    stop = true;
    for (auto& t : sleepers) t.join();
    CHECK(coverage.at("preExisting").as_array().size() == kMaxPreexisting);
    const auto& missed = coverage.at("preExistingMissed").as_array();
    REQUIRE(missed.size() >= 2);
    CHECK(missed.back().at("why").as_string() ==
          "not opened: groups are opened on 64 threads at most (each costs a file descriptor per "
          "event)");
}
