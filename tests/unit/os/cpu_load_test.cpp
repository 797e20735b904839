// /proc/stat's per-CPU times and the least-busy choice behind --pin=auto (os/cpu_affinity.hpp).
#include <doctest/doctest.h>

#include <cmath>

#include "os/cpu_affinity.hpp"

using namespace glint::os;

namespace {

// user nice system idle iowait irq softirq steal guest guest_nice
const char* kBefore =
    "cpu  300 0 100 1000 0 0 0 0 0 0\n"
    "cpu0 100 0 50 500 0 0 0 0 0 0\n"
    "cpu1 100 0 20 200 10 0 0 0 0 0\n"
    "cpu2 100 0 30 300 0 0 0 0 0 0\n"
    "intr 12345\n";
// Over the interval: cpu0 busy 90 of 100, cpu1 busy 10 of 100 (iowait counts idle),
// cpu2 busy 10 of 100 (steal counts busy).
const char* kAfter =
    "cpu  400 0 200 1100 0 0 0 0 0 0\n"
    "cpu0 180 0 60 510 0 0 0 0 0 0\n"
    "cpu1 105 0 25 280 20 0 0 0 0 0\n"
    "cpu2 100 0 30 390 0 0 0 10 0 0\n";

}  // namespace

TEST_CASE("cpu load: /proc/stat per-CPU lines, the aggregate line skipped") {
    const auto t = parse_proc_stat(kBefore);
    REQUIRE(t.size() == 3);
    CHECK(t[0].cpu == 0);
    CHECK(t[0].busy == 150);
    CHECK(t[0].total == 650);
    CHECK(t[1].busy == 120);
    CHECK(t[1].total == 330);  // iowait is idle time
}

TEST_CASE("cpu load: the least busy allowed CPU wins, ties to the lowest number") {
    const auto before = parse_proc_stat(kBefore);
    const auto after = parse_proc_stat(kAfter);
    CHECK(busy_share(before, after, 0) == doctest::Approx(0.9));
    CHECK(busy_share(before, after, 1) == doctest::Approx(0.1));
    CHECK(busy_share(before, after, 2) == doctest::Approx(0.1));
    CHECK(least_busy_cpu(before, after, {0, 1, 2}) == 1u);
    CHECK(least_busy_cpu(before, after, {2, 0}) == 2u);  // only the allowed ones
    CHECK(least_busy_cpu(before, after, {0}) == 0u);
    CHECK(!least_busy_cpu(before, after, {7}));        // not in /proc/stat
    CHECK(std::isnan(busy_share(before, before, 0)));  // no tick passed
}
