// The Linux counting group: for real on this kernel (software events), and through the sys()
// seam for what the kernel here cannot produce (EINTR, short reads, a member refused).
#include <doctest/doctest.h>

#include <cerrno>
#include <chrono>
#include <utility>

#include "os/linux/mmap_page.hpp"
#include "os/perf_events.hpp"
#include "support/fake_perf_kernel.hpp"
#include "support/test_bodies.hpp"

using namespace glint::os;

namespace {

GroupSpec software_spec(bool inherit = false) {
    return GroupSpec{
        {Event::task_clock, Event::page_faults, Event::context_switches, Event::cpu_migrations},
        false,
        inherit};
}

using glint::test::burn_cpu;
using glint::test::touch_fresh_pages;

}  // namespace

TEST_CASE("real: a software group opens, counts, and reports its time fields") {
    PerfGroup group;
    OpenFailure failure;
    REQUIRE_MESSAGE(group.open(software_spec(), failure),
                    "errno " << failure.error << " on " << event_name(failure.event));
    CHECK(group.size() == 4);

    GroupReading before, after;
    REQUIRE(group.reset());
    REQUIRE(group.read(before));
    REQUIRE(group.enable());
    burn_cpu(3'000'000);
    REQUIRE(group.disable());
    REQUIRE(group.read(after));
    CHECK(after.size == 4);
    const std::uint64_t enabled = after.enabled - before.enabled;
    const std::uint64_t running = after.running - before.running;
    // A task event's clock runs while the thread is on a CPU: about the 3 ms of CPU time
    // burnt (thread CPU time and perf's clock are accounted separately: allow 5 %).
    CHECK(static_cast<double>(enabled) >= 0.95 * 3'000'000);
    CHECK(running == enabled);  // software events are never multiplexed
    // task-clock counts the time the group was enabled on this thread.
    CHECK(static_cast<double>(after.values[0]) >= 0.9 * 3'000'000);
    CHECK(after.values[0] <= enabled);

    // RESET zeroes the counts, not the time fields: hence per-pass baselines.
    REQUIRE(group.reset());
    GroupReading reset;
    REQUIRE(group.read(reset));
    CHECK(reset.values[0] == 0);
    CHECK(reset.enabled == after.enabled);
    CHECK(reset.running == after.running);
}

TEST_CASE("real: each member's mmap page maps, the kernel refuses it for inherited events") {
    PerfGroup group;
    OpenFailure failure;
    REQUIRE(group.open(software_spec(), failure));
    REQUIRE(group.map_pages() == 0);
    for (std::size_t i = 0; i < group.size(); ++i) {
        REQUIRE(group.page(i) != nullptr);
        CHECK(group.fd(i) >= 0);
    }
    // Software events never sit on a hardware counter: index 0, no user read.
    auto caps =
        glint::os::linux_::capabilities_of(static_cast<const perf_event_mmap_page*>(group.page(0)));
    CHECK(caps.index == 0);
    group.close();
    CHECK(group.page(0) == nullptr);

    PerfGroup inherited;
    REQUIRE(inherited.open(software_spec(true), failure));
    CHECK(inherited.map_pages() == EINVAL);
    CHECK_FALSE(inherited.pages_mapped());
}

TEST_CASE("seam: a refused member closes the members already open and names itself") {
    glint::test::FakePerfKernel fake;
    fake.hardware_config_errno[PERF_COUNT_HW_BRANCH_MISSES] = ENOENT;
    PerfGroup group;
    OpenFailure failure;
    GroupSpec spec{{Event::cycles, Event::instructions, Event::branch_misses}};
    CHECK_FALSE(group.open(spec, failure));
    CHECK(failure.event == Event::branch_misses);
    CHECK(failure.error == ENOENT);
    CHECK(fake.live_fds() == 0);
    CHECK_FALSE(group.is_open());
}

TEST_CASE("seam: the group is opened disabled, leader first, with the group read format") {
    glint::test::FakePerfKernel fake;
    PerfGroup group;
    OpenFailure failure;
    REQUIRE(group.open(GroupSpec{{Event::cycles, Event::page_faults}, true, true}, failure));
    REQUIRE(fake.opened.size() == 2);
    const auto& leader = fake.opened[0];
    CHECK(leader.type == PERF_TYPE_HARDWARE);
    CHECK(leader.config == PERF_COUNT_HW_CPU_CYCLES);
    CHECK(int(leader.disabled) == 1);
    CHECK(int(leader.exclude_kernel) == 1);
    CHECK(int(leader.inherit) == 1);
    CHECK(leader.read_format ==
          (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING));
    CHECK(fake.opened[1].type == PERF_TYPE_SOFTWARE);
    CHECK(fake.opened[1].config == PERF_COUNT_SW_PAGE_FAULTS);
    CHECK(int(fake.opened[1].disabled) == 0);
}

TEST_CASE("seam: ENABLE/DISABLE toggle the leader alone, RESET covers the whole group") {
    glint::test::FakePerfKernel fake;
    PerfGroup group;
    OpenFailure failure;
    REQUIRE(group.open(GroupSpec{{Event::task_clock, Event::page_faults}}, failure));
    REQUIRE(group.enable());
    REQUIRE(group.disable());
    REQUIRE(group.reset());
    using Call = std::pair<unsigned long, unsigned long>;
    REQUIRE(fake.ioctls.size() == 3);
    CHECK(fake.ioctls[0] == Call{PERF_EVENT_IOC_ENABLE, 0});
    CHECK(fake.ioctls[1] == Call{PERF_EVENT_IOC_DISABLE, 0});
    CHECK(fake.ioctls[2] == Call{PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP});
}

TEST_CASE("real: every member keeps counting across repeated enable/disable cycles") {
    // Pins the reason enable()/disable() do not pass PERF_IOC_FLAG_GROUP (see perf_group.cpp).
    PerfGroup group;
    OpenFailure failure;
    REQUIRE(group.open(software_spec(), failure));
    for (int round = 0; round < 4; ++round) {
        CAPTURE(round);
        GroupReading before, after;
        REQUIRE(group.read(before));
        REQUIRE(group.enable());
        touch_fresh_pages(8);
        REQUIRE(group.disable());
        REQUIRE(group.read(after));
        CHECK(after.values[0] > before.values[0]);       // task-clock
        CHECK(after.values[1] - before.values[1] >= 8);  // page-faults
    }
}

TEST_CASE("seam: EINTR is retried on open, ioctl and read") {
    glint::test::FakePerfKernel fake;
    fake.eintr_opens = 2;
    PerfGroup group;
    OpenFailure failure;
    REQUIRE(group.open(GroupSpec{{Event::task_clock}}, failure));
    CHECK(fake.open_calls == 3);

    fake.eintr_ioctls = 2;
    CHECK(group.enable());
    fake.work(40);
    CHECK(group.disable());
    CHECK(fake.enable_calls == 1);
    fake.eintr_reads = 3;
    GroupReading r;
    REQUIRE(group.read(r));
    CHECK(r.values[0] == fake.apparatus_count + 40);
    CHECK(r.enabled == fake.window_ns + 40);
}

TEST_CASE("seam: a short read is not a reading") {
    glint::test::FakePerfKernel fake;
    PerfGroup group;
    OpenFailure failure;
    REQUIRE(group.open(GroupSpec{{Event::task_clock, Event::page_faults}}, failure));
    fake.short_reads_after = 0;
    GroupReading r;
    CHECK_FALSE(group.read(r));
    CHECK_FALSE(r.ok);
    CHECK(r.size == 0);
}
