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

using glint::guest::EventSpec;
using glint::guest::Events;
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
    const Counts<2> a = g.read_counts();
    glint::guest::loop_3(nullptr, 10'000'000);  // 30 M instructions: several rotations
    const Counts<2> whole = g.read_counts() - a;
    competing.disable();
    // Disabling the competitor does not put our group back by itself; the next time the thread
    // is scheduled in does.
    usleep(2000);
    std::printf("glint-measure: cpu=%s hot regions of loop_3 x %llu while multiplexed: %d of %d "
                "flagged (%d of them counted short, up to %lld ns off the PMU), %d short and "
                "unflagged; %llu reads by read(2) while off; a 30M-instruction region: %lld "
                "instructions counted, %lld ns off the PMU\n",
                glint::guest::guest_cpu().c_str(), static_cast<unsigned long long>(kPasses),
                contended.flagged, kRegions, contended.short_and_flagged,
                static_cast<long long>(contended.max_descheduled_ns), contended.short_unflagged,
                static_cast<unsigned long long>(g.syscall_reads() - syscalls_before),
                static_cast<long long>(whole.counts[1]),
                static_cast<long long>(whole.descheduled_ns));
    CHECK(contended.short_unflagged == 0);
    CHECK(contended.flagged > kRegions / 10);
    CHECK(contended.short_and_flagged > 0);
    CHECK(contended.min_unflagged >= exact);
    CHECK(whole.partial());
    CHECK(whole.descheduled_ns > 0);
    CHECK(whole.counts[1] < 30'000'000);  // short: what the flag warns of
    CHECK(g.syscall_reads() > syscalls_before);  // reads while off the PMU went to read(2)

    // The competition gone, regions are exact and unflagged again (the group's descheduled time
    // so far is behind it, not in them).
    const Tally after = regions(g, exact);
    INFO("after the competition: " << after.flagged << " flagged");
    CHECK(after.flagged == 0);
    CHECK(after.short_unflagged == 0);
}
