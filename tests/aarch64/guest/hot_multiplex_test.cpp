// <glint/hot.hpp>'s multiplexing contract on the guest's real kernel and PMU: with more events
// than counters the kernel rotates the groups, and a hot::Group opened by name flags every region
// during which it was off the PMU (Delta/Counts::partial(), from the leader's published
// time_enabled - time_running, or the read(2) fallback's while the group is off). A region
// counted short is always flagged; without competition nothing is.
#include <doctest/doctest.h>

#include <glint/hot.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "engine_cases.hpp"
#include "guest_events.hpp"
#include "loops.hpp"

using glint::guest::Events;
using glint::guest::EventSpec;
using glint::guest::OpenOptions;
using glint::hot::Counts;
using glint::hot::Group;
using glint::hot::Path;

namespace {

constexpr std::uint64_t kPasses = 5'000;  // loop_3 passes per region: 15,000 instructions
constexpr int kRegions = 4'000;           // about 60 M instructions: ~15 rotations (4 ms each)

struct Tally {
    int flagged = 0;
    int short_and_flagged = 0;
    int short_unflagged = 0;  // the contract's violation: an undercount nobody was told of
    std::int64_t min_unflagged = std::numeric_limits<std::int64_t>::max();
    std::int64_t max_descheduled_ns = 0;
};

// kRegions regions of loop_3(kPasses), each read with read_counts(); `exact` is what a region
// counts on the PMU throughout (0: not known yet).
Tally regions(const Group<2>& g, std::int64_t exact) {
    Tally t;
    for (int k = 0; k < kRegions; ++k) {
        const Counts<2> a = g.read_counts();
        glint::guest::loop_3(nullptr, kPasses);
        const Counts<2> d = g.read_counts() - a;
        const std::int64_t instructions = d.counts[1];
        const bool counted_short = exact != 0 && instructions < exact;
        if (d.partial()) {
            ++t.flagged;
            t.short_and_flagged += counted_short;
            t.max_descheduled_ns = std::max(t.max_descheduled_ns, d.descheduled_ns);
        } else {
            t.short_unflagged += counted_short;
            t.min_unflagged = std::min(t.min_unflagged, instructions);
        }
    }
    return t;
}

// Returns once the group has just come back onto the PMU: a read served by read(2) (the group
// off), then one read inline.
void await_schedule_in(const Group<2>& g) {
    bool was_off = false;
    for (int i = 0; i < 100'000; ++i) {
        const std::uint64_t before = g.syscall_reads();
        (void)g.read_counts();
        const bool off = g.syscall_reads() != before;
        if (was_off && !off) return;
        was_off = off;
        glint::guest::loop_3(nullptr, 1'000);
    }
}

}  // namespace

TEST_CASE("hot multiplexing: a region off the PMU is flagged, never silently short") {
    glint::guest::ScopedUserAccess access(1);
    Group<2> g({"cycles", "instructions"}, glint::hot::Options{.user_only = true});
    INFO(g.status().reason);
    REQUIRE(g.ok());
    REQUIRE(g.path() == Path::inline_user);

    // Alone on the PMU: no region is flagged; the exact count of a region is their minimum.
    const Tally alone = regions(g, 0);
    CHECK(alone.flagged == 0);
    const std::int64_t exact = alone.min_unflagged;
    CHECK(exact >= static_cast<std::int64_t>(3 * kPasses));

    // kCompetingEvents more event counters than the PMU has left: the kernel rotates the two
    // groups on its multiplexing timer, so ours is off the PMU about half the time.
    Events competing(std::vector<EventSpec>(glint::guest::kCompetingEvents),
                     OpenOptions{.as_group = true, .user_access = false});
    REQUIRE_MESSAGE(competing.ok(), competing.error());
    competing.enable();
    const std::uint64_t syscalls_before = g.syscall_reads();
    const Tally contended = regions(g, exact);
    // Regions that start as the group comes back onto the PMU and last 9 to 11 M instructions
    // (9 to 11 ms; the kernel rotates every 4 ms) contain a whole stretch off the PMU and end
    // with the group on it again: every one is short, and must be flagged although both its
    // reads found the group on the PMU (inline, no read(2)), where only the page's republished
    // times can tell.
    constexpr int kLong = 8;
    int long_flagged = 0;
    int long_short = 0;
    int long_inline_ends = 0;
    std::int64_t long_least_descheduled = std::numeric_limits<std::int64_t>::max();
    for (int k = 0; k < kLong; ++k) {
        const std::uint64_t passes = 3'000'000 + 100'000 * static_cast<std::uint64_t>(k);
        await_schedule_in(g);
        const std::uint64_t syscalls = g.syscall_reads();
        const Counts<2> a = g.read_counts();
        glint::guest::loop_3(nullptr, passes);
        const Counts<2> d = g.read_counts() - a;
        long_flagged += d.partial();
        long_short += d.counts[1] < static_cast<std::int64_t>(3 * passes);
        long_inline_ends += g.syscall_reads() == syscalls;
        long_least_descheduled = std::min(long_least_descheduled, d.descheduled_ns);
    }
    competing.disable();
    // Disabling the competitor does not put our group back by itself; the next time the thread
    // is scheduled in does.
    usleep(2000);
    std::printf(
        "glint-measure: cpu=%s hot regions of loop_3 x %llu while multiplexed: %d of %d "
        "flagged (%d of them counted short, up to %lld ns off the PMU), %d short and "
        "unflagged; %llu reads by read(2) while off; %d of %d regions of 9-11M "
        "instructions counted short, %d flagged (%d with both reads inline), each at "
        "least %lld ns off the PMU\n",
        glint::guest::guest_cpu().c_str(), static_cast<unsigned long long>(kPasses),
        contended.flagged, kRegions, contended.short_and_flagged,
        static_cast<long long>(contended.max_descheduled_ns), contended.short_unflagged,
        static_cast<unsigned long long>(g.syscall_reads() - syscalls_before), long_short, kLong,
        long_flagged, long_inline_ends, static_cast<long long>(long_least_descheduled));
    CHECK(contended.short_unflagged == 0);
    CHECK(contended.flagged > kRegions / 10);
    CHECK(contended.short_and_flagged > 0);
    CHECK(contended.min_unflagged >= exact);
    CHECK(long_short == kLong);  // what the flag warns of
    CHECK(long_flagged == kLong);
    CHECK(long_inline_ends >= kLong / 2);
    CHECK(long_least_descheduled > 0);
    CHECK(g.syscall_reads() > syscalls_before);  // reads while off the PMU went to read(2)

    // The competition gone, regions are exact and unflagged again (the group's descheduled time
    // so far is behind it, not in them).
    const Tally after = regions(g, exact);
    INFO("after the competition: " << after.flagged << " flagged");
    CHECK(after.flagged == 0);
    CHECK(after.short_unflagged == 0);
}
