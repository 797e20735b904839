// os/linux/x86_64/rdpmc_grant.hpp: whether a group's pages grant user rdpmc, and why not.
//
// Pure: from what each member's perf_event_mmap_page said while the group was enabled, and the
// kernel's rdpmc sysfs setting (disclosure only: the page decides). Every hardware member must
// grant a read — cap_user_rdpmc set, index != 0, pmc_width 1..64 — for the rdpmc path to be
// offered; software members (index 0 always: page-faults) are read with read(2) by that path
// and do not count against it. Not granted: a reason naming each refusing member and page
// field, and a remedy where there is one.
#pragma once

#include <string>
#include <vector>

#include "os/linux/mmap_page.hpp"
#include "os/linux/x86_64/rdpmc_sysfs.hpp"
#include "os/perf_events.hpp"

namespace glint::os::linux_::x86_64 {

// One member's page as probed (group enabled).
struct MemberPage {
    Event event = Event::cycles;
    PageCapabilities caps;
};

struct RdpmcGrant {
    bool granted = false;
    std::string reason;  // why not (empty when granted)
    std::string remedy;  // what would grant it, when something would
};

// True for a member the rdpmc path reads with rdpmc (a hardware event).
bool read_with_rdpmc(Event event);

// Whether one page grants a user read: cap_user_rdpmc && index != 0 && 1 <= pmc_width <= 64.
bool page_grants(const PageCapabilities& caps);

RdpmcGrant decide_rdpmc(const std::vector<MemberPage>& members,
                        const std::vector<RdpmcSetting>& sysfs);

}  // namespace glint::os::linux_::x86_64
