// os/linux/aarch64/user_read_path.cpp: the AArch64 user-access read path (arm64 Linux), this
// home's offer_user_read_path (os/read_path.hpp), named "user-access" (rdpmc for --perf-read).
//
// Over a group opened with GroupSpec::user_access, a bracket is the compiled bracket of
// os/linux/aarch64/bracket.hpp: `mrs` reads, no system call inside the window. Outside it: the
// leader's page gives enabled/running (needs cap_user_time); software members are read with one
// read(2) before and one after. A member at index 0 is read with read(2) for that slot. The group
// counts from begin_pass to end_pass; nothing between brackets is in any delta.
// Rationale and details: docs/rationale.md, "os/linux/aarch64/user_read_path.cpp".
#include <linux/perf_event.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "arch/aarch64/pmu.hpp"
#include "os/errors.hpp"
#include "os/linux/aarch64/bracket.hpp"
#include "os/linux/aarch64/user_access.hpp"
#include "os/linux/mmap_page.hpp"
#include "os/read_path.hpp"
#include "os/words.hpp"

namespace glint::os {
namespace {

namespace lx = linux_;
using Mode = UserAccessGrant::Mode;
using Pmu = arch::aarch64::Pmu;
constexpr std::size_t kMaxSlots = lx::Arm64GroupPages::kMaxSlots;
constexpr const char* kPathName = "user-access";

const perf_event_mmap_page* page_of(const PerfGroup& group, std::size_t member) {
    return static_cast<const perf_event_mmap_page*>(group.page(member));
}

struct Times {
    std::uint64_t enabled = 0;
    std::uint64_t running = 0;
};

// The leader's enabled/running now: the page's values extrapolated with CNTVCT (running only
// while the group is on the PMU, index != 0).
Times leader_times(const perf_event_mmap_page* leader) {
    const lx::PageReading r = lx::read_page<lx::Arm64LinuxPolicy<Pmu>, true>(leader);
    return Times{r.enabled, r.running};
}

std::string describe_layout(const lx::Arm64Layout& layout, std::size_t slots) {
    if (!layout.specialised)
        return fmt::format(
            "generic bracket over {} counters (register chosen per read from the "
            "page index)",
            slots);
    std::string where;
    if (layout.cycles_first) where = fmt::format("PMCCNTR_EL0 ({}-bit)", layout.cycles_width);
    if (layout.events > 0) {
        if (!where.empty()) where += " + ";
        where += layout.events == 1 ? std::string("PMEVCNTR0_EL0")
                                    : fmt::format("PMEVCNTR0..{}_EL0", layout.events - 1);
        where += fmt::format(" ({}-bit)", layout.event_width);
    }
    return "bracket specialised on " + where + ", the index re-checked on every read";
}

// Counters of what the path did since it was built (JSON meta).
struct UserAccessStats {
    std::uint64_t brackets = 0;
    std::uint64_t read2_fallbacks = 0;  // slots read with read(2) (their page granted no read)
    std::uint64_t failed_reads = 0;     // of those, failed (their bracket: not ok)
};

class UserAccessPath final : public ReadPath {
  public:
    explicit UserAccessPath(PerfGroup& group) : group_(group) {
        const auto& events = group.spec().events;
        for (std::size_t i = 0; i < group.size(); ++i)
            (is_hardware(events[i]) ? hardware_ : software_).push_back(i);
        pages_.count = hardware_.size();
        for (std::size_t slot = 0; slot < hardware_.size(); ++slot)
            pages_.pages[slot] = page_of(group, hardware_[slot]);
        pages_.fallback = &read_slot_with_syscall;
        pages_.fallback_context = this;
        leader_ = page_of(group, 0);
    }

    std::string_view name() const override { return kPathName; }

    std::string describe() const override {
        std::string line =
            "user-access (mrs of the counters the perf mmap pages name, no system "
            "call between a bracket's reads; " +
            describe_layout(layout_, hardware_.size()) + ")";
        if (!software_.empty()) {
            line += "; " + join_events(software_events()) +
                    " read with read(2) before and after each bracket, outside its window";
        }
        return line;
    }

    bool begin_pass() override {
        if (!group_.disable() || !group_.reset() || !group_.enable()) return false;
        choose_bracket();
        return true;
    }

    GroupDelta bracket(Body body, std::uint64_t n) override {
        GroupDelta d;
        GroupReading before, after;
        // A failed read still runs the body (the contract in read_path.hpp); its delta is not ok.
        const bool before_read = software_.empty() || group_.read(before);
        failed_ = false;
        std::int64_t deltas[kMaxSlots] = {};
        const Times t0 = leader_times(leader_);
        {
            StopOnUnwind guard{group_};
            const std::uint64_t w0 = Pmu::timestamp_begin();
            bracket_(lx::Arm64BracketCall{pages_, body.run, body.ctx, n, deltas});
            const std::uint64_t w1 = Pmu::timestamp_end();
            last_ticks_ = static_cast<double>(w1 - w0);
            guard.armed = false;
        }
        const Times t1 = leader_times(leader_);
        ++stats_.brackets;
        if (!before_read || (!software_.empty() && !group_.read(after))) return d;

        d.size = group_.size();
        d.ok = !failed_ && t1.enabled >= t0.enabled && t1.running >= t0.running;
        d.enabled = t1.enabled - t0.enabled;
        d.running = t1.running - t0.running;
        for (std::size_t slot = 0; slot < hardware_.size(); ++slot) {
            if (deltas[slot] < 0) d.ok = false;
            d.counts[hardware_[slot]] = static_cast<std::uint64_t>(deltas[slot]);
        }
        for (std::size_t m : software_) {
            if (after.values[m] < before.values[m]) d.ok = false;
            d.counts[m] = after.values[m] - before.values[m];
        }
        return d;
    }

    void end_pass() override { group_.disable(); }

    // CNTVCT ticks of the compiled bracket (its first counter read to its last, the body
    // between), without the times' and software members' reads around it.
    double last_window_ticks() const override { return last_ticks_; }

    void meta(MetaWriter& m) const override {
        const UserAccessGrant& grant = group_.user_access();
        const auto& events = group_.spec().events;
        m.records("counters");
        for (std::size_t slot = 0; slot < hardware_.size(); ++slot) {
            const std::size_t member = hardware_[slot];
            MetaWriter& c = m.append_record("counters");
            c.text("event", event_name(events[member]));
            c.number("index", indices_[slot]);
            c.number("pmcWidth", widths_[slot]);
            c.flag("counter64", grant.counter64[member]);
            c.flag("fellBackTo32", grant.fell_back_to_32[member]);
        }
        m.text("bracket", describe_layout(layout_, hardware_.size()));
        m.flag("specialised", layout_.specialised);
        std::vector<std::string> software;
        for (Event e : software_events()) software.emplace_back(event_name(e));
        m.texts("readWithRead2", software);
        m.text("times", "the leader's mmap page (cap_user_time, CNTVCT)");
        m.number("brackets", static_cast<double>(stats_.brackets));
        m.number("read2Fallbacks", static_cast<double>(stats_.read2_fallbacks));
        m.number("failedReads", static_cast<double>(stats_.failed_reads));
    }

  private:
    std::vector<Event> software_events() const {
        std::vector<Event> names;
        for (std::size_t m : software_) names.push_back(group_.spec().events[m]);
        return names;
    }

    // The slow path of a slot whose page grants no read now: the member's count by read(2).
    // A failed read marks the bracket failed (its delta is not ok) and returns 0.
    static std::int64_t read_slot_with_syscall(const void* context, std::size_t slot) {
        auto* self = const_cast<UserAccessPath*>(static_cast<const UserAccessPath*>(context));
        ++self->stats_.read2_fallbacks;
        GroupReading r;
        if (!self->group_.read(r)) {
            ++self->stats_.failed_reads;
            self->failed_ = true;
            return 0;
        }
        return static_cast<std::int64_t>(r.values[self->hardware_[slot]]);
    }

    // Called with the group enabled (on the PMU unless multiplexed out).
    void choose_bracket() {
        for (std::size_t slot = 0; slot < hardware_.size(); ++slot) {
            const lx::PageCapabilities caps = lx::capabilities_of(pages_.pages[slot]);
            indices_[slot] = caps.index;
            widths_[slot] = caps.pmc_width;
        }
        layout_ = lx::arm64_layout_of(indices_, widths_, hardware_.size(), kMaxSlots);
        bracket_ = lx::select_user_access_bracket(layout_);
    }

    PerfGroup& group_;
    std::vector<std::size_t> hardware_;  // members read with mrs, in group order (the slots)
    std::vector<std::size_t> software_;  // members read with read(2) around the bracket
    lx::Arm64GroupPages pages_;
    const perf_event_mmap_page* leader_ = nullptr;
    std::uint32_t indices_[kMaxSlots] = {};  // as the pages showed at the last begin_pass
    unsigned widths_[kMaxSlots] = {};
    lx::Arm64Layout layout_;
    lx::Arm64BracketFn bracket_ = &lx::run_generic_user_access_bracket;
    bool failed_ = false;
    double last_ticks_ = std::numeric_limits<double>::quiet_NaN();  // no bracket yet
    UserAccessStats stats_;
};

const char* mode_name(Mode mode) {
    switch (mode) {
        case Mode::not_requested:
            return "not-requested";
        case Mode::not_applicable:
            return "not-applicable";
        case Mode::requested:
            return "requested";
        case Mode::refused:
            return "refused";
    }
    return "not-requested";
}

// What the open did about user access, for the header line.
std::string describe_grant(const UserAccessGrant& grant, const PerfGroup& group) {
    switch (grant.mode) {
        case Mode::not_requested:
            return "not asked for at open";
        case Mode::not_applicable:
            return "not applicable (" + grant.reason + ")";
        case Mode::refused:
            return "not asked for (the read-path line says why)";
        case Mode::requested:
            break;
    }
    const std::size_t members = group.size();
    std::size_t asked = 0, wide = 0, narrowed = 0;
    for (std::size_t m = 0; m < members; ++m) {
        if (!is_hardware(group.spec().events[m])) continue;
        ++asked;
        if (grant.counter64[m]) ++wide;
        if (grant.fell_back_to_32[m]) ++narrowed;
    }
    std::string line = fmt::format("asked for on {} hardware counter{} (config1 bit 1)", asked,
                                   asked == 1 ? "" : "s");
    if (wide > 0) line += fmt::format(", {} with 64-bit counters (bit 0)", wide);
    if (narrowed > 0)
        line += fmt::format(
            ", {} given 32-bit ones (the PMU refused 64 bits with EOPNOTSUPP; "
            "their readings are sign-extended)",
            narrowed);
    return line;
}

// The sysctl and what the group's open did about user access: header facts and meta, for every
// run (--perf-read=syscall too).
void add_facts(UserReadOffer& offer, const PerfGroup& group) {
    const lx::UserAccessSysctl sysctl = lx::read_perf_user_access();
    const UserAccessGrant& grant = group.user_access();
    const std::string value = sysctl.value >= 0
                                  ? std::to_string(sysctl.value)
                                  : "unreadable (" + describe_errno(sysctl.error) + ")";
    std::string line = "arm64 user access: kernel.perf_user_access=" + value;
    if (!grant.pmu.empty()) line += ", core PMU " + grant.pmu;
    offer.facts.push_back(line + "; " + describe_grant(grant, group));
    const int sysctl_value = sysctl.value;
    const std::string pmu = grant.pmu;
    const char* mode = mode_name(grant.mode);
    offer.meta = [sysctl_value, pmu, mode](MetaWriter& m) {
        if (sysctl_value >= 0) m.number("perfUserAccess", sysctl_value);
        else m.null("perfUserAccess");
        if (pmu.empty()) m.null("pmu");
        else m.text("pmu", pmu);
        m.text("grant", mode);
    };
}

}  // namespace

UserReadOffer offer_user_read_path(PerfGroup& group, bool build) {
    UserReadOffer offer;
    offer.name = kPathName;
    add_facts(offer, group);
    if (!build) return offer;
    offer.state = UserReadOffer::State::unavailable;
    offer.reason = generic_members_reason(group);
    if (!offer.reason.empty()) return offer;

    const UserAccessGrant& grant = group.user_access();
    switch (grant.mode) {
        case Mode::not_requested:
            offer.reason = "the group was opened without asking the kernel for user access";
            return offer;
        case Mode::not_applicable:
            offer.reason = grant.reason.empty() ? std::string("no arm64 core PMU") : grant.reason;
            return offer;
        case Mode::refused:
            offer.reason = grant.reason;
            offer.remedy = grant.remedy;
            return offer;
        case Mode::requested:
            break;
    }
    const auto& events = group.spec().events;
    if (group.size() == 0 || !is_hardware(events.front())) {
        offer.reason = "the group has no hardware counters (software group)";
        return offer;
    }
    offer.reason = map_pages_or_reason(group);
    if (!offer.reason.empty()) return offer;
    for (std::size_t i = 0; i < group.size(); ++i) {
        if (!is_hardware(events[i])) continue;
        if (!lx::capabilities_of(page_of(group, i)).user_rdpmc) {
            offer.reason = fmt::format(
                "the kernel did not grant user access to {} "
                "(cap_user_rdpmc is 0 on its perf page)",
                event_name(events[i]));
            return offer;
        }
    }
    if (!lx::capabilities_of(page_of(group, 0)).user_time) {
        offer.reason =
            "the leader's perf page offers no user-space clock (cap_user_time is 0), "
            "so a bracket's enabled/running times would need read(2)";
        return offer;
    }
    offer.path = std::make_unique<UserAccessPath>(group);
    offer.state = UserReadOffer::State::available;
    return offer;
}

}  // namespace glint::os
