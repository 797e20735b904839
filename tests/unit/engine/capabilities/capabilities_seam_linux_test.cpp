// scalar-counting and event-space on a fake kernel: each state with its reason and remedy.
#include <doctest/doctest.h>

#include <cerrno>
#include <cstring>

#include "engine/capabilities/capabilities.hpp"
#include "support/fake_perf_kernel.hpp"

using namespace glint::engine;
using glint::test::FakePerfKernel;

namespace {

bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

constexpr const char* kIdPath = "/sys/kernel/tracing/events/raw_syscalls/sys_enter/id";

// tracefs mounted at /sys/kernel/tracing, as the fake's filesystem.
void mount_fake_tracefs(FakePerfKernel& fake) {
    fake.access = [](const char* path, int) {
        if (std::strcmp(path, "/sys/kernel/tracing/events") == 0) return 0;
        errno = ENOENT;
        return -1;
    };
    fake.files[kIdPath] = "21\n";
}

Status probe(std::size_t index, const CapabilityProbeConfig& config = {}) {
    return probe_capabilities(PerfRequest{}, config)[index];
}

}  // namespace

TEST_CASE("capability scalar-counting: hardware group available") {
    FakePerfKernel fake;
    const Status s = probe(0);
    CHECK(s.state == Status::State::available);
    CHECK(contains(s.reason, "hardware group: cycles"));
    CHECK(contains(s.reason, "read path: syscall"));
    CHECK(fake.live_fds() == 0);  // the probe closes what it opened
}

TEST_CASE("capability scalar-counting: software-only without a PMU, with the remedy") {
    FakePerfKernel fake;
    fake.hardware_errno = ENOENT;
    CapabilityProbeConfig config;
    config.pmu_root = "/nonexistent";
    const Status s = probe(0, config);
    CHECK(s.state == Status::State::degraded);
    CHECK(contains(s.reason, "software group only"));
    CHECK(contains(s.remedy, "virtual PMU"));
}

TEST_CASE("capability scalar-counting: user-only and refused states name the paranoid remedy") {
    {
        FakePerfKernel fake;
        fake.refuse_kernel_errno = EACCES;
        const Status s = probe(0);
        CHECK(s.state == Status::State::degraded);
        CHECK(contains(s.reason, "user-only counting"));
        CHECK(contains(s.remedy, "sysctl kernel.perf_event_paranoid=1"));
    }
    {
        FakePerfKernel fake;
        fake.refuse_all_errno = EACCES;
        const Status s = probe(0);
        CHECK(s.state == Status::State::unavailable);
        CHECK(contains(s.reason, "EACCES"));
        CHECK(contains(s.remedy, "sysctl kernel.perf_event_paranoid=2"));
    }
}

TEST_CASE("capability event-space: countable tracepoints") {
    FakePerfKernel fake;
    mount_fake_tracefs(fake);
    const Status s = probe(4);
    CHECK(s.state == Status::State::available);
    CHECK(contains(s.reason, "/sys/kernel/tracing"));
    REQUIRE_FALSE(fake.opened.empty());
    CHECK(fake.opened.back().type == PERF_TYPE_TRACEPOINT);
    CHECK(fake.opened.back().config == 21);
}

TEST_CASE("capability event-space: tracefs not mounted names the mount command") {
    FakePerfKernel fake;
    fake.access = [](const char*, int) {
        errno = ENOENT;
        return -1;
    };
    const Status s = probe(4);
    CHECK(s.state == Status::State::unavailable);
    CHECK(contains(s.reason, "tracefs is not mounted"));
    CHECK(s.remedy == "mount -t tracefs nodev /sys/kernel/tracing (as root)");
}

TEST_CASE("capability event-space: unreadable ids and refused opens") {
    {
        FakePerfKernel fake;
        mount_fake_tracefs(fake);
        fake.file_errno[kIdPath] = EACCES;
        const Status s = probe(4);
        CHECK(s.state == Status::State::unavailable);
        CHECK(contains(s.reason, "is unreadable: EACCES"));
        CHECK(contains(s.remedy, "root"));
    }
    {
        FakePerfKernel fake;
        mount_fake_tracefs(fake);
        fake.refuse_all_errno = EACCES;
        const Status s = probe(4);
        CHECK(s.state == Status::State::unavailable);
        CHECK(contains(s.reason, "refused a tracepoint counter: EACCES"));
        CHECK(contains(s.remedy, "perf_event_paranoid=1"));
    }
}
