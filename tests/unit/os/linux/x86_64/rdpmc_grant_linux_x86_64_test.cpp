// decide_rdpmc: which page fields refuse user rdpmc, and what the reason and remedy say.
#include <doctest/doctest.h>

#include <string>

#include "os/linux/x86_64/rdpmc_grant.hpp"

using glint::os::Event;
using glint::os::linux_::PageCapabilities;
using glint::os::linux_::RdpmcSetting;
namespace x86 = glint::os::linux_::x86_64;

namespace {

PageCapabilities granted(std::uint32_t index) {
    PageCapabilities c;
    c.user_rdpmc = true;
    c.index = index;
    c.pmc_width = 48;
    return c;
}

PageCapabilities software_page() { return PageCapabilities{}; }  // index 0, no cap

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const std::vector<RdpmcSetting> kCpuRdpmc0{
    {"cpu", "/sys/bus/event_source/devices/cpu/rdpmc", 0, ""}};

}  // namespace

TEST_CASE("rdpmc grant: every hardware page granting → granted, software members do not count") {
    const x86::RdpmcGrant g = x86::decide_rdpmc({{Event::cycles, granted(1)},
                                                 {Event::instructions, granted(2)},
                                                 {Event::page_faults, software_page()}},
                                                {});
    CHECK(g.granted);
    CHECK(g.reason.empty());
}

TEST_CASE("rdpmc grant: no hardware member") {
    const x86::RdpmcGrant g = x86::decide_rdpmc(
        {{Event::task_clock, software_page()}, {Event::page_faults, software_page()}}, {});
    CHECK_FALSE(g.granted);
    CHECK(contains(g.reason, "the group has no hardware counter"));
    CHECK(g.remedy.empty());
}

TEST_CASE("rdpmc grant: cap_user_rdpmc 0 names the members, the sysfs value, and the remedy") {
    PageCapabilities off = granted(1);
    off.user_rdpmc = false;
    const x86::RdpmcGrant g = x86::decide_rdpmc(
        {{Event::cycles, off}, {Event::instructions, off}, {Event::page_faults, software_page()}},
        kCpuRdpmc0);
    CHECK_FALSE(g.granted);
    CHECK(g.reason ==
          "the kernel did not grant user rdpmc (cap_user_rdpmc 0) on the page of cycles, "
          "instructions; rdpmc sysfs: cpu/rdpmc=0 (user rdpmc disabled for every process)");
    CHECK(g.remedy == "echo 1 > /sys/bus/event_source/devices/cpu/rdpmc (as root)");
}

TEST_CASE("rdpmc grant: index 0 while enabled, and a bad pmc_width, each named") {
    PageCapabilities idle = granted(0);
    PageCapabilities narrow = granted(3);
    narrow.pmc_width = 0;
    const x86::RdpmcGrant g = x86::decide_rdpmc(
        {{Event::cycles, granted(1)}, {Event::branch_misses, idle}, {Event::branches, narrow}}, {});
    CHECK_FALSE(g.granted);
    CHECK(
        contains(g.reason, "the page of branch-misses showed index 0 while the group was enabled"));
    CHECK(contains(g.reason, "pmc_width outside 1..64 on the page of branches (0)"));
    CHECK(contains(g.remedy, "free PMU counters"));
}

TEST_CASE("rdpmc grant: page_grants needs the cap, an index and a width in 1..64") {
    CHECK(x86::page_grants(granted(1)));
    PageCapabilities c = granted(1);
    c.pmc_width = 64;
    CHECK(x86::page_grants(c));
    c.pmc_width = 65;
    CHECK_FALSE(x86::page_grants(c));
    CHECK_FALSE(x86::page_grants(granted(0)));
    CHECK_FALSE(x86::page_grants(software_page()));
    CHECK(x86::read_with_rdpmc(Event::cache_misses));
    CHECK_FALSE(x86::read_with_rdpmc(Event::page_faults));
}
