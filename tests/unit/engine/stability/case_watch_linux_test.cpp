// What the case watcher sees of the measuring thread, on this kernel.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "engine/stability/case_watch.hpp"
#include "os/cpu_affinity.hpp"
#include "support/skip.hpp"

using namespace glint::engine;

TEST_CASE("case watch: a thread moved to another CPU is seen moving, and counted") {
    const auto allowed = glint::os::thread_affinity();
    if (allowed.size() < 2) return glint::test::skip("one CPU: nothing to migrate to");
    CaseStability seen;
    bool counts = false;
    std::string why;
    std::thread t([&] {  // its own thread: the watcher counts the thread that made it
        REQUIRE(glint::os::set_thread_affinity({allowed[0]}) == 0);
        CaseWatcher watcher;
        counts = watcher.counts_migrations();
        why = watcher.migrations_unavailable();
        watcher.begin();
        REQUIRE(glint::os::set_thread_affinity({allowed[1]}) == 0);  // the kernel moves it now
        seen = watcher.end();
    });
    t.join();
    CHECK(seen.cpus ==
          std::vector<int>{static_cast<int>(allowed[0]), static_cast<int>(allowed[1])});
    REQUIRE(seen.preemptions.has_value());
    if (!counts) return glint::test::skip("cpu-migrations cannot be counted here: " + why);
    REQUIRE(seen.migrations.has_value());
    CHECK(*seen.migrations >= 1);
}

TEST_CASE("case watch: a thread that stays on its CPU reads one CPU and no migration") {
    const auto allowed = glint::os::thread_affinity();
    REQUIRE(!allowed.empty());
    CaseStability seen;
    std::thread t([&] {
        REQUIRE(glint::os::set_thread_affinity({allowed.back()}) == 0);
        CaseWatcher watcher;
        watcher.begin();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        seen = watcher.end();
    });
    t.join();
    CHECK(seen.cpus == std::vector<int>{static_cast<int>(allowed.back())});
    CHECK(seen.migrations.value_or(0) == 0);
}
