// The paths that are not the fast one: perf_user_access=0, no 64-bit event counters,
// more events than counters.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "os/linux/aarch64/bracket.hpp"
#include "os/linux/aarch64/user_access.hpp"
#include "preamble.hpp"

namespace {

struct CountingFallback {
    const Events* events;
    int calls = 0;
    static std::int64_t read(const void* context, std::size_t slot) {
        auto* self = static_cast<CountingFallback*>(const_cast<void*>(context));
        ++self->calls;
        return self->events->read_count(slot);
    }
};

}  // namespace

TEST_CASE("perf_user_access=0: the syscall path is taken, and the reason and remedy are given") {
    glint::guest::ScopedUserAccess off(0);
    const linux_::UserAccessSysctl sysctl = linux_::read_perf_user_access();
    CHECK(sysctl.value == 0);
    const linux_::UserAccessDecision decision = linux_::decide_user_access(sysctl);
    CHECK_FALSE(decision.allowed);
    CHECK(decision.reason.find("perf_user_access is 0") != std::string::npos);
    CHECK(decision.remedy == "sysctl kernel.perf_user_access=1");
    std::printf("glint-guest: perf_user_access=0 -> %s (remedy: %s)\n", decision.reason.c_str(),
                decision.remedy.c_str());

    // A caller that asks for user access anyway gets pages with index 0: every read goes to
    // read(2), and the counts stay exact.
    Events group({{linux_::kArmv8CpuCycles}, {linux_::kArmv8InstRetired}}, OpenOptions{});
    REQUIRE_MESSAGE(group.ok(), group.error());
    group.enable();
    for (std::size_t i = 0; i < 2; ++i) {
        CHECK(linux_::capabilities_of(group.page(i)).index == 0);
        CHECK_FALSE(linux_::read_page<aarch64::Pmu>(group.page(i)).user_read);
    }
    CHECK_FALSE(group.layout().specialised);
    linux_::Arm64GroupPages pages = group.bracket_pages();
    CountingFallback fallback{&group};
    pages.fallback = &CountingFallback::read;
    pages.fallback_context = &fallback;
    // read(2) runs the same user-space instructions every time; the kernel's are excluded.
    std::int64_t d0[2], dn[2];
    linux_::run_generic_user_access_bracket({pages, &glint::guest::loop_3, nullptr, 0, d0});
    linux_::run_generic_user_access_bracket({pages, &glint::guest::loop_3, nullptr, 1000, dn});
    CHECK(dn[1] - d0[1] == 3000);
    CHECK(fallback.calls == 8);  // 2 slots x 2 reads x 2 brackets
    group.disable();
}

TEST_CASE("64-bit event counters where the PMU has them, else a fallback to 32-bit") {
    Events group({{linux_::kArmv8CpuCycles}, {linux_::kArmv8InstRetired}},
                 OpenOptions{.want_64bit = true});
    REQUIRE_MESSAGE(group.ok(), group.error());
    group.enable();
    glint::guest::loop_3(nullptr, 100);
    const bool has64 = glint::guest::cpu_has_64bit_event_counters();
    std::printf(
        "glint-guest: cpu=%s config1=0x3: cycles %s; instructions %s\n",
        glint::guest::guest_cpu().c_str(), group.counter64(0) ? "64-bit" : "32-bit",
        group.counter64(1)
            ? "64-bit"
            : (group.fell_back_to_32(1) ? "refused with EOPNOTSUPP, opened 32-bit" : "32-bit"));
    // PMCCNTR_EL0 is 64-bit on every PMUv3; event counters only with PMUv3p5 (FEAT_PMUv3p5).
    CHECK(group.counter64(0));
    CHECK(group.counter64(1) == has64);
    CHECK(group.fell_back_to_32(1) == !has64);
    const unsigned widths[2] = {64u, has64 ? 64u : 32u};
    for (std::size_t i = 0; i < 2; ++i) {
        INFO("slot " << i);
        const linux_::PageCapabilities caps = linux_::capabilities_of(group.page(i));
        CHECK(caps.pmc_width == widths[i]);
        CHECK(caps.index != 0);
        const linux_::PageReading before = linux_::read_page<aarch64::Pmu>(group.page(i));
        const std::int64_t syscall = group.read_count(i);
        const linux_::PageReading after = linux_::read_page<aarch64::Pmu>(group.page(i));
        CHECK(before.count <= syscall);
        CHECK(syscall <= after.count);
    }
    const linux_::Arm64Layout layout = group.layout();
    CHECK(layout.specialised);
    CHECK(layout.cycles_width == 64);
    CHECK(layout.event_width == widths[1]);
    group.disable();
}

TEST_CASE("more events than counters is detected as multiplexed") {
    // A group that fits is never multiplexed.
    {
        Events fits({{linux_::kArmv8CpuCycles}, {linux_::kArmv8InstRetired}}, OpenOptions{});
        REQUIRE_MESSAGE(fits.ok(), fits.error());
        fits.enable();
        glint::guest::loop_3(nullptr, 3'000'000);
        fits.disable();
        const glint::guest::SyscallReading r = fits.read_leader_of(0);
        CHECK(r.running == r.enabled);
    }
    // Eight INST_RETIRED events on a PMU with six event counters: the kernel rotates them on
    // its multiplexing timer, so each runs for only part of the time it is enabled.
    constexpr std::size_t kEvents = 8;
    Events events(std::vector<EventSpec>(kEvents), OpenOptions{.as_group = false});
    REQUIRE_MESSAGE(events.ok(), events.error());
    events.enable();
    glint::guest::loop_3(nullptr, 10'000'000);  // 30M instructions: several rotation periods
    std::size_t off_counter = 0;
    for (std::size_t i = 0; i < kEvents; ++i) {
        const linux_::PageReading page = linux_::read_page<aarch64::Pmu>(events.page(i));
        if (!page.user_read) ++off_counter;
    }
    events.disable();
    std::size_t multiplexed = 0;
    for (std::size_t i = 0; i < kEvents; ++i) {
        const glint::guest::SyscallReading r = events.read_leader_of(i);
        INFO("event " << i << " enabled " << r.enabled << " running " << r.running);
        CHECK(r.enabled > 0);
        CHECK(r.running <= r.enabled);
        if (r.running < r.enabled) ++multiplexed;
    }
    std::printf(
        "glint-guest: %zu events on the PMU: %zu multiplexed, %zu off a counter at the "
        "read\n",
        kEvents, multiplexed, off_counter);
    CHECK(multiplexed >= 2);
    CHECK(off_counter >= 2);
}
