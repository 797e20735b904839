// engine/threads/thread_team.hpp: a batch run on N threads at once, timed by itself. Also run
// under ThreadSanitizer (tests/sanitize: glint_tsan_tests).
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <glint/bench.hpp>

#include "engine/registry/params.hpp"
#include "engine/threads/thread_team.hpp"
#include "engine/timing/protocol.hpp"
#include "os/cpu_affinity.hpp"

using glint::engine::ThreadTeam;

namespace {

// Counts each thread's iterations in its own slot; checks thread_index() against the slots.
struct PerThreadCalls {
    std::array<std::atomic<std::uint64_t>, 8> calls{};
    std::atomic<bool> out_of_range{false};
    static void run(void* ctx, std::uint64_t n) {
        auto& self = *static_cast<PerThreadCalls*>(ctx);
        const unsigned i = glint::thread_index();
        if (i >= self.calls.size()) self.out_of_range = true;
        else self.calls[i].fetch_add(n);
    }
};

}  // namespace

TEST_CASE("thread team: every thread runs the run's n iterations, numbered 0..N-1, the caller 0") {
    PerThreadCalls counts;
    ThreadTeam team({&PerThreadCalls::run, &counts}, 3);
    CHECK(team.size() == 3);
    const glint::detail::Batch b = team.batch();
    b.run(b.ctx, 1000);
    b.run(b.ctx, 24);
    CHECK_FALSE(counts.out_of_range.load());
    CHECK(counts.calls[0] == 1024);
    CHECK(counts.calls[1] == 1024);
    CHECK(counts.calls[2] == 1024);
    CHECK(counts.calls[3] == 0);
    CHECK(glint::thread_index() == 0);
}

TEST_CASE(
    "thread team: workers asleep between runs wake for the next one, and the team joins them") {
    PerThreadCalls counts;
    {
        ThreadTeam team({&PerThreadCalls::run, &counts}, 2);
        const glint::detail::Batch b = team.batch();
        b.run(b.ctx, 5);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the spinning: asleep
        b.run(b.ctx, 5);
    }  // joined here (a worker left waiting would hang the test)
    CHECK(counts.calls[0] == 10);
    CHECK(counts.calls[1] == 10);
}

TEST_CASE(
    "thread team: an exception on a worker is rethrown by run on the caller, and the team goes "
    "on") {
    struct Throwing {
        std::atomic<bool> armed{true};
        std::atomic<std::uint64_t> calls{0};
        static void run(void* ctx, std::uint64_t n) {
            auto& self = *static_cast<Throwing*>(ctx);
            self.calls.fetch_add(n);
            if (glint::thread_index() == 1 && self.armed.exchange(false))
                throw std::runtime_error("worker 1");
        }
    } body;
    ThreadTeam team({&Throwing::run, &body}, 2);
    const glint::detail::Batch b = team.batch();
    CHECK_THROWS_WITH_AS(b.run(b.ctx, 3), "worker 1", std::runtime_error);
    CHECK(body.calls == 6);  // both threads finished the run first
    CHECK_NOTHROW(b.run(b.ctx, 3));
    CHECK(body.calls == 12);
}

TEST_CASE(
    "thread team: a run reads as its slowest thread's time, and a thread that lost the CPU marks "
    "it disturbed") {
    // Thread 1 sleeps 20 ms inside its share: the run's wall is at least that, and since that
    // thread kept almost none of the CPU through it, its CPU reading is far below the wall.
    struct Sleepy {
        static void run(void*, std::uint64_t) {
            if (glint::thread_index() == 1)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    };
    ThreadTeam team({&Sleepy::run, nullptr}, 2);
    const glint::detail::Batch b = team.batch();
    REQUIRE(static_cast<bool>(b.self_timing));
    b.run(b.ctx, 1);
    const auto t = b.self_timing(b.ctx);
    CHECK(t.wall_ns >= 20e6);
    if (!std::isnan(t.cpu_ns)) CHECK(t.cpu_ns < t.wall_ns / 2);
}

TEST_CASE("thread team: a run reports its slowest thread's core-speed probe, read after the run") {
    PerThreadCalls counts;
    ThreadTeam team({&PerThreadCalls::run, &counts}, 2);
    const glint::detail::Batch b = team.batch();
    b.run(b.ctx, 10);
    const auto t = b.self_timing(b.ctx);
    // ns per dependent add: a cycle or a few (far more only where the probe lost the CPU).
    CHECK(t.core_step_ns > 0);
    CHECK(t.core_step_ns < 1e5);
    // The row's pass takes the samples' probes' median (engine/timing/protocol.cpp).
    glint::engine::TimingConfig config;
    config.pinned = 64;
    CHECK(glint::engine::time_batched(b, config).core_step_ns > 0);
    config.core_probe = false;
    CHECK(std::isnan(glint::engine::time_batched(b, config).core_step_ns));
}

TEST_CASE("thread team: iter_batched and instruction-level batches cannot share threads") {
    glint::detail::Batch plain{&PerThreadCalls::run, nullptr};
    CHECK_FALSE(glint::engine::threaded_batch_problem(plain).has_value());
    glint::detail::Batch inputs = plain;
    inputs.prepare = [](void*, std::uint64_t) {};
    const auto batched = glint::engine::threaded_batch_problem(inputs);
    REQUIRE(batched.has_value());
    CHECK(batched->find("iter_batched runs on one thread") != std::string::npos);
    glint::detail::Batch difference = plain;
    difference.reference = [](void*, std::uint64_t) {};
    const auto asm_case = glint::engine::threaded_batch_problem(difference);
    REQUIRE(asm_case.has_value());
    CHECK(asm_case->find("instruction-level") != std::string::npos);
}

TEST_CASE("glint::threads: a parameter named threads, counts from 1 to 1024, read by threads_of") {
    const glint::Param p = glint::threads({1, 2, 4});
    CHECK(p.name == "threads");
    CHECK(p.error.empty());
    CHECK(glint::threads({0}).error ==
          "glint::threads(...): 0 threads: give counts from 1 to 1024");
    CHECK(glint::threads({2, 1025}).error ==
          "glint::threads(...): 1025 threads: give counts from 1 to 1024");
    CHECK(glint::threads({}).error == "glint::threads(...): give at least one value");
    CHECK(glint::threads({2, 2}).error == "glint::threads(...): the value 2 is listed twice");
    CHECK(glint::engine::threads_of({}) == 1);
    CHECK(glint::engine::threads_of({{"size", 64}, {"threads", 4}}) == 4);
    CHECK(glint::engine::threads_of({{"threads", 1}}) == 1);
}

// --pin pins the measuring thread; the runner gives the workers the CPUs the run had before
// (set_worker_cpus), so a team does not share the pinned CPU. Needs two CPUs this test may use.
TEST_CASE(
    "thread team: workers run on the CPUs set_worker_cpus names, not on the caller's pinned one") {
    const std::vector<unsigned> allowed = glint::os::thread_affinity();
    if (allowed.size() < 2 || glint::os::current_cpu() < 0) {
        MESSAGE("skipped: fewer than 2 CPUs to place threads on");
        return;
    }
    struct WhereRun {
        std::array<std::atomic<int>, 2> cpu{};
        static void run(void* ctx, std::uint64_t) {
            static_cast<WhereRun*>(ctx)->cpu[glint::thread_index()] = glint::os::current_cpu();
        }
    } where;
    REQUIRE(glint::os::set_thread_affinity({allowed[0]}) == 0);
    glint::engine::set_worker_cpus({allowed[1]});
    {
        ThreadTeam team({&WhereRun::run, &where}, 2);
        const glint::detail::Batch b = team.batch();
        b.run(b.ctx, 1);
    }
    glint::engine::set_worker_cpus({});
    REQUIRE(glint::os::set_thread_affinity(allowed) == 0);
    CHECK(where.cpu[0] == static_cast<int>(allowed[0]));
    CHECK(where.cpu[1] == static_cast<int>(allowed[1]));
}

// A team given CPUs (team_cpus) runs thread i on cpus[i], the caller too while the team lives,
// and gives the caller its placement back when it ends.
TEST_CASE(
    "thread team: a placed team runs each thread on its own CPU and restores the caller's "
    "placement") {
    const std::vector<unsigned> allowed = glint::os::thread_affinity();
    if (allowed.size() < 2 || glint::os::current_cpu() < 0) {
        MESSAGE("skipped: fewer than 2 CPUs to place threads on");
        return;
    }
    const std::vector<unsigned> cpus = glint::engine::team_cpus(2);
    REQUIRE(cpus.size() == 2);
    CHECK(cpus[0] != cpus[1]);
    CHECK(glint::engine::team_cpus(static_cast<unsigned>(allowed.size()) + 1)
              .empty());  // more threads than CPUs
    struct WhereRun {
        std::array<std::atomic<int>, 2> cpu{};
        static void run(void* ctx, std::uint64_t) {
            static_cast<WhereRun*>(ctx)->cpu[glint::thread_index()] = glint::os::current_cpu();
        }
    } where;
    {
        ThreadTeam team({&WhereRun::run, &where}, 2, cpus);
        const glint::detail::Batch b = team.batch();
        b.run(b.ctx, 1);
    }
    CHECK(where.cpu[0] == static_cast<int>(cpus[0]));
    CHECK(where.cpu[1] == static_cast<int>(cpus[1]));
    CHECK(glint::os::thread_affinity() == allowed);
}
