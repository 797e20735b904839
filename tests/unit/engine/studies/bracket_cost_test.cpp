// glint::BracketCost (<glint/bracket_cost.hpp>) for real on this host, checked against the
// counting layer it stands on: the same group as the perf tier's, the same user-path offer.
// On a host without a PMU (this project's development VM) that is the software group, anchor
// "tc ns", rdpmc absent with the reason; with a PMU, the hardware group and "instr"; where no
// group opens (a GLINT_OS=other build, a kernel refusing perf_event), the failure is the tier's
// reason and the tests that need a group skip. Exact figures are tested on the fake kernel
// (bracket_cost_api_linux_test.cpp, beside this file).
// Nothing here is about speed.
#include <doctest/doctest.h>

#include <glint/bracket_cost.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "arch/arch.hpp"
#include "engine/counting/group_opener.hpp"
#include "engine/counting/read_path.hpp"
#include "engine/timing/clock.hpp"
#include "support/skip.hpp"

using glint::BracketCost;
using glint::PathStudy;
using Path = BracketCost::Path;
namespace counting = glint::engine::counting;

namespace {

struct Counted {
    std::uint64_t calls = 0;
    std::uint64_t operator()() { return glint::black_box(++calls); }
};

bool has(const std::vector<glint::os::Event>& events, glint::os::Event e) {
    return std::find(events.begin(), events.end(), e) != events.end();
}

}  // namespace

TEST_CASE("bracket cost: the perf tier's group, its anchor and the user path's offer") {
    BracketCost cost;
    counting::OpenRequest request;
    request.user_access = true;
    counting::OpenedGroup reference = counting::open_counting_group(request);
    REQUIRE(cost.ok() == reference.usable());
    if (!cost.ok()) {
        MESSAGE("no counting group here: " << cost.failure());
        CHECK(cost.failure() == reference.statuses.front().reason);
        CHECK_FALSE(cost.user_path_available());
        return;
    }
    CHECK(cost.failure().empty());
    const auto& members = reference.group.spec().events;
    if (reference.kind == counting::GroupKind::software) {
        MESSAGE("software group (no PMU here)");
        CHECK(cost.anchor() == "tc ns");
    } else {
        CHECK(cost.anchor() == (has(members, glint::os::Event::instructions) ? "instr" : ""));
    }
    const counting::UserReadOffer offer = glint::os::offer_user_read_path(reference.group, true);
    CHECK(cost.user_path_name() == offer.name);
    CHECK(cost.user_path_available() == (offer.path != nullptr));
    if (!cost.user_path_available()) {
        MESSAGE(cost.user_path_name() << " absent: " << cost.user_path_absent());
        CHECK(cost.user_path_absent() == offer.reason);
        CHECK_FALSE(cost.user_path_absent().empty());
    }
}

TEST_CASE("bracket cost: the syscall path is studied over the caller's body") {
    BracketCost cost;
    if (!cost.ok()) return glint::test::skip("no counting group here: " + cost.failure());
    Counted body;
    const PathStudy s = cost.study(Path::syscall, body, 2000, 500);
    REQUIRE_MESSAGE(s.ok, s.failure);
    CHECK(body.calls == 2 * 2000);  // the body, every iteration bracketed, then batched
    CHECK(s.iterations == 2000);
    CHECK(s.batch == 500);
    CHECK(std::isfinite(s.ns_per_bracket));
    CHECK(s.ns_per_bracket > 0);
    CHECK(std::isnan(s.window_ns));  // the syscall path has no window apart from its calls
    CHECK(std::isfinite(s.anchor_per_bracket));
    CHECK(std::isfinite(s.batch1_raw));
    CHECK(std::isfinite(s.batched_raw));
    // A bracket's counting window is never empty, so 2000 of them hold at least what 4 do.
    CHECK(s.batch1_raw >= s.batched_raw);
    CHECK(s.inflation() == s.batch1_raw / s.batched_raw);
    if (cost.anchor() == "tc ns") CHECK(std::isnan(s.cycles_per_bracket));

    CHECK(cost.study(Path::syscall, body, 10, 50).batch == 10);  // clamped to the iterations
    if (!cost.user_path_available()) {
        const PathStudy user = cost.study(Path::user, body, 10, 10);
        CHECK_FALSE(user.ok);
        CHECK(user.failure.find(cost.user_path_absent()) != std::string::npos);
        CHECK(std::isnan(user.ns_per_bracket));
        CHECK(std::isnan(user.batched_raw));
    }
}

TEST_CASE("bracket cost: the rows' calls work on this host") {
    BracketCost cost;
    if (!cost.ok()) return glint::test::skip("no counting group here: " + cost.failure());
    REQUIRE(cost.begin_pass(Path::syscall));
    for (int i = 0; i < 3; ++i) CHECK(cost.bracket(Path::syscall));
    cost.end_pass(Path::syscall);
    CHECK(cost.ioctl_pair());
    CHECK(cost.group_read() > 0);  // the group has been enabled (calibration, the pass)
    CHECK(cost.begin_pass(Path::user) == cost.user_path_available());
    if (cost.user_path_available()) {
        CHECK(cost.bracket(Path::user));
        cost.end_pass(Path::user);
    } else {
        CHECK_FALSE(cost.bracket(Path::user));
    }
}

TEST_CASE("bracket cost: the timestamp pair and its calibrated cost") {
    CHECK(BracketCost::has_timestamp() == glint::arch::native::kHasTimestamp);
    const glint::engine::ClockProperties& clock = glint::engine::clock_properties();
    if (clock.ticks_usable) CHECK(BracketCost::timestamp_pair_ns() == clock.tick_bracket_ns);
    else CHECK(std::isnan(BracketCost::timestamp_pair_ns()));
    if (BracketCost::has_timestamp()) {
        // end - begin, never the other way round (which would wrap to nearly 2^64); a slow
        // counter (arm64's CNTVCT) may read the same value twice.
        CHECK(BracketCost::timestamp_pair() < (std::uint64_t{1} << 40));
    } else {
        CHECK(BracketCost::timestamp_pair() == 0);
    }
}
