#include "os/linux/x86_64/rdpmc_grant.hpp"

#include <fmt/format.h>

#include "os/words.hpp"

namespace glint::os::linux_::x86_64 {
namespace {

// The sysfs files that disable user rdpmc (value 0).
std::vector<const RdpmcSetting*> disabling(const std::vector<RdpmcSetting>& sysfs) {
    std::vector<const RdpmcSetting*> off;
    for (const auto& s : sysfs)
        if (s.value == 0) off.push_back(&s);
    return off;
}

}  // namespace

bool read_with_rdpmc(Event event) { return is_hardware(event); }

bool page_grants(const PageCapabilities& caps) {
    return caps.user_rdpmc && caps.index != 0 && caps.pmc_width >= 1 && caps.pmc_width <= 64;
}

RdpmcGrant decide_rdpmc(const std::vector<MemberPage>& members,
                        const std::vector<RdpmcSetting>& sysfs) {
    RdpmcGrant g;
    std::vector<std::string> no_cap, no_index, bad_width;
    bool any_hardware = false;
    for (const MemberPage& m : members) {
        if (!read_with_rdpmc(m.event)) continue;
        any_hardware = true;
        const std::string name(event_name(m.event));
        if (!m.caps.user_rdpmc) no_cap.push_back(name);
        else if (m.caps.index == 0) no_index.push_back(name);
        else if (m.caps.pmc_width < 1 || m.caps.pmc_width > 64)
            bad_width.push_back(fmt::format("{} ({})", name, m.caps.pmc_width));
    }
    if (!any_hardware) {
        g.reason =
            "the group has no hardware counter (without a hardware PMU only the software "
            "group opens), and rdpmc reads hardware counters only";
        return g;
    }
    std::vector<std::string> why;
    std::vector<std::string> remedies;
    if (!no_cap.empty()) {
        std::string text = fmt::format(
            "the kernel did not grant user rdpmc (cap_user_rdpmc 0) on "
            "the page of {}",
            join(no_cap));
        text += "; rdpmc sysfs: " + describe_rdpmc(sysfs);
        why.push_back(text);
        for (const auto* s : disabling(sysfs))
            remedies.push_back(fmt::format("echo 1 > {} (as root)", s->path));
    }
    if (!no_index.empty()) {
        why.push_back(
            fmt::format("the page of {} showed index 0 while the group was enabled (the "
                        "event was not on a hardware counter)",
                        join(no_index)));
        remedies.push_back(
            "free PMU counters (stop other perf sessions, sysctl "
            "kernel.nmi_watchdog=0)");
    }
    if (!bad_width.empty())
        why.push_back(fmt::format("pmc_width outside 1..64 on the page of {}", join(bad_width)));
    if (why.empty()) {
        g.granted = true;
        return g;
    }
    g.reason = join(why, "; ");
    g.remedy = join(remedies, "; ");
    return g;
}

}  // namespace glint::os::linux_::x86_64
