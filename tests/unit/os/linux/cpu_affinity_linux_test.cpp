// The calling thread's affinity, CPU, CPU time and context switches, on this kernel.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <thread>

#include "os/cpu_affinity.hpp"
#include "os/thread_usage.hpp"

using namespace glint::os;

TEST_CASE("placement: a thread pinned to one CPU reads that affinity and runs there") {
    const std::vector<unsigned> allowed = thread_affinity();
    REQUIRE(!allowed.empty());
    const unsigned target = allowed.back();
    std::vector<unsigned> seen;
    int rc = -1, cpu = -1;
    std::thread t([&] {  // another thread: the test runner's own affinity stays as it was
        rc = set_thread_affinity({target});
        seen = thread_affinity();
        cpu = current_cpu();
    });
    t.join();
    CHECK(rc == 0);
    CHECK(seen == std::vector<unsigned>{target});
    CHECK(cpu == static_cast<int>(target));
    CHECK(thread_affinity() == allowed);
}

TEST_CASE("placement: pinning to a CPU that does not exist is refused with EINVAL") {
    int rc = 0;
    std::thread t([&] { rc = set_thread_affinity({4000}); });
    t.join();
    CHECK(rc == EINVAL);
}

TEST_CASE("placement: thread CPU time follows work, not sleep") {
    const std::int64_t start = thread_cpu_ns();
    REQUIRE(start >= 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    const std::int64_t slept = thread_cpu_ns();
    // Spin until the clock shows 20 ms of CPU time (other tenants may take the CPU meanwhile:
    // the wall bound is generous); a clock that does not follow work never gets there.
    volatile std::uint64_t x = 0;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    std::int64_t spun = slept;
    while (spun - slept < 20'000'000 && std::chrono::steady_clock::now() < give_up) {
        x = x + 1;
        spun = thread_cpu_ns();
    }
    CHECK(slept - start < 10'000'000);  // a 30 ms sleep used well under 10 ms of CPU
    CHECK(spun - slept >= 20'000'000);
}

TEST_CASE("placement: a sleep is a voluntary context switch of this thread") {
    const ThreadSwitches before = thread_switches();
    REQUIRE(before.ok);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const ThreadSwitches after = thread_switches();
    CHECK(after.voluntary > before.voluntary);
    CHECK(after.involuntary >= before.involuntary);
}
