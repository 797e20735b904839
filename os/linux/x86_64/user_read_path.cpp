// The x86-64 user-space read path: rdpmc (rdpmc_path.hpp), offered when every hardware member's
// page grants it (rdpmc_grant.hpp). The kernel's rdpmc sysfs setting is disclosed either way.
#include <linux/perf_event.h>

#include <cerrno>

#include <fmt/format.h>

#include "os/errors.hpp"
#include "os/linux/mmap_page.hpp"
#include "os/linux/x86_64/rdpmc_grant.hpp"
#include "os/linux/x86_64/rdpmc_path.hpp"
#include "os/linux/x86_64/rdpmc_sysfs.hpp"
#include "os/read_path.hpp"

namespace glint::os {
namespace {

using namespace linux_;

// Reports the sysfs rdpmc files in the offer's facts and meta; returns them for the grant.
std::vector<RdpmcSetting> add_sysfs_facts(UserReadOffer& offer) {
    std::vector<RdpmcSetting> settings = read_rdpmc_settings();
    const std::string line = describe_rdpmc(settings);
    offer.facts.push_back("rdpmc sysfs: " + line);
    offer.meta = [line, settings](MetaWriter& m) {
        m.text("rdpmcSysfs", line);
        m.records("rdpmcFiles");
        for (const auto& s : settings) {
            MetaWriter& f = m.append_record("rdpmcFiles");
            f.text("pmu", s.pmu);
            f.text("path", s.path);
            if (s.value >= 0) f.number("value", s.value);
            else f.null("value");
            if (!s.error.empty()) f.text("error", s.error);
        }
    };
    return settings;
}

// The members' pages while the group is enabled (the kernel publishes an index only then).
bool probe_pages(PerfGroup& group, std::vector<x86_64::MemberPage>& pages, std::string& why) {
    if (!group.enable()) {
        why = fmt::format("the group could not be enabled to read its pages: {}",
                          describe_errno(errno));
        return false;
    }
    for (std::size_t m = 0; m < group.size(); ++m) {
        const auto* page = static_cast<const perf_event_mmap_page*>(group.page(m));
        pages.push_back({group.spec().events[m], capabilities_of(page)});
    }
    group.disable();
    return true;
}

}  // namespace

UserReadOffer offer_user_read_path(PerfGroup& group, bool build) {
    UserReadOffer offer;
    const std::vector<RdpmcSetting> settings = add_sysfs_facts(offer);
    if (!build) return offer;
    offer.state = UserReadOffer::State::unavailable;
    offer.reason = generic_members_reason(group);
    if (!offer.reason.empty()) return offer;

    std::vector<x86_64::MemberPage> pages;
    bool any_hardware = false;
    for (Event e : group.spec().events) any_hardware = any_hardware || x86_64::read_with_rdpmc(e);
    if (!any_hardware) {
        offer.reason = x86_64::decide_rdpmc({}, {}).reason;
        return offer;
    }
    offer.reason = map_pages_or_reason(group);
    if (!offer.reason.empty()) return offer;
    if (!probe_pages(group, pages, offer.reason)) return offer;
    const x86_64::RdpmcGrant grant = x86_64::decide_rdpmc(pages, settings);
    if (!grant.granted) {
        offer.reason = grant.reason;
        offer.remedy = grant.remedy;
        return offer;
    }
    std::string error;
    offer.path = x86_64::RdpmcPath::create(group, pages, error);
    if (!offer.path) {
        offer.reason = error;
        return offer;
    }
    offer.state = UserReadOffer::State::available;
    return offer;
}

}  // namespace glint::os
