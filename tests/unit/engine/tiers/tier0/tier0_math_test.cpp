#include <doctest/doctest.h>

#include <cmath>

#include "engine/tiers/tier0/tier0_math.hpp"

using namespace glint::engine::tier0;
using glint::os::ProcessSnapshot;

namespace {

std::size_t at(ProcessCounter c) { return static_cast<std::size_t>(c); }

ProcessSnapshot snapshot(std::uint64_t base, std::uint64_t own_reads = 0,
                         std::uint64_t own_bytes = 0) {
    ProcessSnapshot s;
    for (std::size_t i = 0; i < kProcessCounters; ++i) {
        s.values[i] = base + i;
        s.present[i] = true;
    }
    s.own_reads = own_reads;
    s.own_bytes = own_bytes;
    return s;
}

Tier0Delta delta_of(double value) {
    Tier0Delta d;
    d.values.fill(value);
    d.present.fill(true);
    return d;
}

}  // namespace

TEST_CASE("tier0 math: a delta removes the first snapshot's own /proc/self/io reads exactly") {
    const ProcessSnapshot before = snapshot(100, 2, 130);
    ProcessSnapshot after = snapshot(100);
    after.values[at(ProcessCounter::syscr)] += 2 + 5;  // its 2 reads + 5 of the body
    after.values[at(ProcessCounter::rchar)] += 130 + 4096;
    after.values[at(ProcessCounter::minflt)] += 3;
    const Tier0Delta d = snapshot_delta(before, after);
    CHECK(d.values[at(ProcessCounter::syscr)] == 5);
    CHECK(d.values[at(ProcessCounter::rchar)] == 4096);
    CHECK(d.values[at(ProcessCounter::minflt)] == 3);
    CHECK(d.values[at(ProcessCounter::wchar)] == 0);
    for (bool p : d.present) CHECK(p);
}

TEST_CASE("tier0 math: a field missing from either snapshot, or going backwards, is absent") {
    ProcessSnapshot before = snapshot(100);
    ProcessSnapshot after = snapshot(200);
    before.present[at(ProcessCounter::read_bytes)] = false;
    after.present[at(ProcessCounter::write_bytes)] = false;
    after.values[at(ProcessCounter::majflt)] = 0;  // went backwards
    const Tier0Delta d = snapshot_delta(before, after);
    CHECK_FALSE(d.present[at(ProcessCounter::read_bytes)]);
    CHECK_FALSE(d.present[at(ProcessCounter::write_bytes)]);
    CHECK_FALSE(d.present[at(ProcessCounter::majflt)]);
    CHECK(d.present[at(ProcessCounter::syscr)]);
    CHECK(d.values[at(ProcessCounter::syscr)] == 100);
}

TEST_CASE("tier0 math: the own-read removal never drives a field below zero") {
    const ProcessSnapshot before = snapshot(100, 2, 500);
    const ProcessSnapshot after = snapshot(100);  // the kernel saw nothing (a fake)
    const Tier0Delta d = snapshot_delta(before, after);
    CHECK(d.values[at(ProcessCounter::syscr)] == 0);
    CHECK(d.values[at(ProcessCounter::rchar)] == 0);
}

TEST_CASE(
    "tier0 math: the bracket cost is the per-field median, absent where any bracket lacks it") {
    std::vector<Tier0Delta> empties{delta_of(1), delta_of(9), delta_of(2), delta_of(2),
                                    delta_of(3)};
    empties[3].present[at(ProcessCounter::wchar)] = false;
    const Tier0Delta cost = median_cost(empties);
    CHECK(cost.values[at(ProcessCounter::syscr)] == 2);
    CHECK_FALSE(cost.present[at(ProcessCounter::wchar)]);
    CHECK(median_cost({delta_of(1), delta_of(4)}).values[0] == 2.5);
    const Tier0Delta none = median_cost({});
    for (bool p : none.present) CHECK_FALSE(p);
}

TEST_CASE(
    "tier0 math: per iteration subtracts the cost per bracket, clamps at 0, nan when absent") {
    Tier0Totals totals;
    Tier0Delta a = delta_of(1000);
    a.values[at(ProcessCounter::minflt)] = 1;  // less than the cost
    a.present[at(ProcessCounter::majflt)] = false;
    totals.add(a);
    totals.add(delta_of(1000));
    CHECK(totals.brackets == 2);
    CHECK_FALSE(totals.sum.present[at(ProcessCounter::majflt)]);

    Tier0Delta cost = delta_of(10);
    cost.present[at(ProcessCounter::wchar)] = false;
    const auto per = per_iteration(totals, 100, cost);
    CHECK(per[at(ProcessCounter::syscr)] == doctest::Approx((2000.0 - 20.0) / 100));
    CHECK(per[at(ProcessCounter::minflt)] == doctest::Approx((1001.0 - 20.0) / 100));
    CHECK(std::isnan(per[at(ProcessCounter::majflt)]));
    CHECK(std::isnan(per[at(ProcessCounter::wchar)]));

    Tier0Totals small;
    small.add(delta_of(3));
    CHECK(per_iteration(small, 10, delta_of(5))[0] == 0);  // clamped, not negative
    CHECK(std::isnan(per_iteration(small, 0, delta_of(0))[0]));
    CHECK(std::isnan(per_iteration(Tier0Totals{}, 10, delta_of(0))[0]));
}

TEST_CASE("tier0 math: cache-hit is the share of read bytes the block device did not supply") {
    CHECK(cache_hit_percent(4096, 0) == 100);
    CHECK(cache_hit_percent(4000, 100) == doctest::Approx(97.5));
    CHECK(cache_hit_percent(4096, 4096) == 0);
    CHECK(cache_hit_percent(4096, 8192) == 0);     // readahead beyond what was read: clamped
    CHECK(std::isnan(cache_hit_percent(0.5, 0)));  // nothing read: no rate
    CHECK(std::isnan(cache_hit_percent(std::nan(""), 0)));
    CHECK(std::isnan(cache_hit_percent(100, std::nan(""))));
}
