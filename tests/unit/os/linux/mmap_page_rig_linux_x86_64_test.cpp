// os::linux_::read_page (the generic seqlock read) on the emulated PMU, with the real rdpmc
// instruction trapped, and its time extrapolation against hand-computed numbers.
#include <doctest/doctest.h>

#include <cstdint>

#include "arch/x86_64/pmu.hpp"
#include "os/linux/mmap_page.hpp"
#include "support/emulated_pmu.hpp"
#include "support/stub_rig.hpp"

using glint::os::linux_::read_page;
using glint::test::EmulatedPmu;

namespace {

constexpr std::uint64_t kWrap48 = std::uint64_t{1} << 48;

// The real rdpmc; a timestamp the test chooses.
struct FixedClock {
    static inline std::uint64_t tsc = 0;
    static std::uint64_t read_pmc(std::uint32_t index) {
        return glint::arch::x86_64::Pmu::read_pmc(index);
    }
    static std::uint64_t read_timestamp() { return tsc; }
};

void reprogram_e0(EmulatedPmu& pmu, void*) { pmu.reprogram(0, 0x123456789); }

}  // namespace

TEST_CASE("read_page on the emulated PMU: offset plus the sign-extended counter") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e = pmu.add_event(2, kWrap48 - 10);
    pmu.advance(e, 25);  // the hardware counter wraps from 0xffff_ffff_fff6 to 0xf
    const auto r = read_page<FixedClock, false>(pmu.page(e));
    CHECK(r.user_read);
    CHECK(r.index == 3);
    CHECK(r.count == 25);
    CHECK(pmu.traps() == 1);
}

TEST_CASE("read_page on the emulated PMU: a lock bumped mid-read retries to a consistent value") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e = pmu.add_event(0, kWrap48 - 1000);
    pmu.advance(e, 777);
    pmu.at_trap(1, &reprogram_e0);  // right after the first rdpmc latched the old counter
    const auto r = read_page<FixedClock, false>(pmu.page(e));
    CHECK(r.count == 777);
    CHECK(pmu.traps() == 2);
}

TEST_CASE("read_page on the emulated PMU: index 0 gives no count and runs no rdpmc") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e = pmu.add_event(0, 5);
    pmu.advance(e, 40);
    pmu.deschedule(e);
    const auto r = read_page<FixedClock, false>(pmu.page(e));
    CHECK_FALSE(r.user_read);  // not "offset alone" (the pmu-tools trap): read(2) is the caller's
    CHECK(r.index == 0);
    CHECK(pmu.traps() == 0);
}

TEST_CASE("read_page: time_enabled/time_running extrapolated with time_mult/shift/offset") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e = pmu.add_event(0, 0);
    perf_event_mmap_page* page = pmu.page(e);
    page->time_enabled = 1000;
    page->time_running = 400;
    page->time_mult = 1536;  // 1.5 ns per tick
    page->time_shift = 10;
    page->time_offset = static_cast<std::uint64_t>(-1'500'000);
    FixedClock::tsc = 1'000'003;
    // quot = 1000003 >> 10 = 976, rem = 1000003 - 976*1024 = 579
    // delta = -1500000 + 976*1536 + (579*1536 >> 10) = -1500000 + 1499136 + 868 = 4
    SUBCASE("without cap_user_time the page's values are used as they are") {
        const auto r = read_page<FixedClock>(page);
        CHECK(r.enabled == 1000);
        CHECK(r.running == 400);
    }
    SUBCASE("on a counter: both advance") {
        page->cap_user_time = 1;
        const auto r = read_page<FixedClock>(page);
        CHECK(r.enabled == 1004);
        CHECK(r.running == 404);
    }
    SUBCASE("off the PMU (index 0): only enabled advances") {
        page->cap_user_time = 1;
        pmu.deschedule(e);  // publishes the rig's own times: this case's again
        page->time_enabled = 1000;
        page->time_running = 400;
        const auto r = read_page<FixedClock>(page);
        CHECK(r.enabled == 1004);
        CHECK(r.running == 400);
    }
}

TEST_CASE("read_page: cap_user_time_short folds a narrow clock into time_cycles") {
    EmulatedPmu pmu(48);
    GLINT_REQUIRE_EMULATION(pmu);
    const int e = pmu.add_event(0, 0);
    perf_event_mmap_page* page = pmu.page(e);
    page->cap_user_time = 1;
    page->cap_user_time_short = 1;
    page->time_enabled = 1000;
    page->time_running = 1000;
    page->time_cycles = 0x1234'0000'0000;
    page->time_mask = 0xffff'ffff;  // a 32-bit clock
    page->time_mult = 3;
    page->time_shift = 1;  // 1.5 ns per tick
    page->time_offset = static_cast<std::uint64_t>(-(0x1234'0000'0000ll * 3 / 2));
    FixedClock::tsc = 0x5678'0001'0000;
    // cyc = 0x1234_0000_0000 + ((0x5678_0001_0000 - 0x1234_0000_0000) & 0xffff_ffff)
    //     = 0x1234_0001_0000;  cyc * 1.5 = 0x1b4e_0001_8000;  minus 0x1234_0000_0000 * 1.5
    //     = 0x1_8000 = 98304 ns
    const auto r = read_page<FixedClock>(page);
    CHECK(r.enabled == 1000 + 98304);
    CHECK(r.running == 1000 + 98304);
    // Without the correction the 64-bit difference would have been used: far larger.
    page->cap_user_time_short = 0;
    CHECK(read_page<FixedClock>(page).enabled > 1000 + 98304 + 1'000'000);
}
