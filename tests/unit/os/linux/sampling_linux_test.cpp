// The Linux sampler against the real kernel (rig 1: cpu-clock works without a PMU) and, for
// failures, through the sys() seam.
#include <doctest/doctest.h>

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <vector>

#include "os/linux/sys.hpp"
#include "os/sampling.hpp"

using glint::os::SampleEvent;
using glint::os::Sampler;
using glint::os::SamplerSpec;

namespace {

std::uint64_t burn(std::chrono::milliseconds ms) {
    const auto end = std::chrono::steady_clock::now() + ms;
    std::uint64_t x = 1;
    while (std::chrono::steady_clock::now() < end)
        for (int i = 0; i < 1000; ++i) {
            x = x * 6364136223846793005ull + 1;
            asm volatile("" : "+r"(x));
        }
    return x;
}

SamplerSpec timer_spec() {
    SamplerSpec spec;
    spec.event = SampleEvent::cpu_clock;
    spec.period = 100000;  // 100 µs
    spec.exclude_kernel = true;
    return spec;
}

}  // namespace

TEST_CASE("sampler, real kernel: cpu-clock samples this thread while enabled, and only then") {
    Sampler s;
    REQUIRE(s.open(timer_spec()) == 0);
    burn(std::chrono::milliseconds(20));  // disabled: nothing
    s.drain(nullptr);
    CHECK(s.counts().samples == 0);
    std::vector<glint::os::SampleRecord> got;
    REQUIRE(s.enable());
    burn(std::chrono::milliseconds(60));
    REQUIRE(s.disable());
    s.drain([&](const glint::os::SampleRecord& r) { got.push_back(r); });
    glint::os::SamplerTimes t;
    REQUIRE(s.times(t));
    // 60 ms of CPU at one sample per 100 µs of it: as many samples as the count says (the
    // count is the CPU time while enabled), give or take the period in flight.
    CHECK(s.counts().samples == got.size());
    CHECK(got.size() >= 100);
    CHECK(static_cast<double>(got.size()) ==
          doctest::Approx(static_cast<double>(t.count) / 100000).epsilon(0.1));
    for (const auto& r : got) {
        CHECK(r.pid == static_cast<std::uint32_t>(getpid()));
        CHECK(r.tid == static_cast<std::uint32_t>(syscall(SYS_gettid)));
        CHECK(r.period == 100000);
        CHECK_FALSE(r.in_kernel);
        REQUIRE_FALSE(r.user_stack.empty());
        CHECK(r.user_stack.front() == r.ip);
    }
    CHECK(s.counts().lost == 0);
    CHECK(s.counts().malformed == 0);
    const std::uint64_t before = s.counts().samples;
    burn(std::chrono::milliseconds(20));  // disabled again
    s.drain(nullptr);
    CHECK(s.counts().samples == before);
    CHECK(s.pending_bytes() == 0);
}

TEST_CASE("sampler: a bad spec is refused before any system call") {
    Sampler s;
    SamplerSpec spec = timer_spec();
    spec.data_pages = 3;
    CHECK(s.open(spec) == EINVAL);
    spec = timer_spec();
    spec.period = 0;
    spec.frequency = 0;
    CHECK(s.open(spec) == EINVAL);
    CHECK_FALSE(s.is_open());
}

namespace {
int g_closed = -1;
int g_opened = -1;
int fake_open(perf_event_attr* attr, pid_t pid, int cpu, int group, unsigned long flags) {
    g_opened = glint::os::linux_::real_sys().perf_event_open(attr, pid, cpu, group, flags);
    return g_opened;
}
void* refuse_mmap(void*, std::size_t, int, int, int, off_t) {
    errno = EPERM;
    return MAP_FAILED;
}
int record_close(int fd) {
    g_closed = fd;
    return glint::os::linux_::real_sys().close(fd);
}
}  // namespace

TEST_CASE("sampler: a refused ring closes the event and returns the errno") {
    glint::os::linux_::SysTable table = glint::os::linux_::real_sys();
    table.perf_event_open = fake_open;
    table.mmap = refuse_mmap;
    table.close = record_close;
    glint::os::linux_::ScopedSys scope(table);
    Sampler s;
    CHECK(s.open(timer_spec()) == EPERM);
    CHECK_FALSE(s.is_open());
    CHECK(g_opened >= 0);
    CHECK(g_closed == g_opened);
}
