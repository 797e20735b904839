// Every tier of a build for an OS without a counter back end (GLINT_OS=other): asked for, each
// one refuses with its reason, none opens, and no column of theirs is available or default.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "engine/tiers/registry.hpp"
#include "engine/tiers/tier_set.hpp"

using namespace glint::engine;

TEST_CASE("tiers off Linux: every tier asked for refuses with its reason, and none opens") {
    TierRequest request;
    request.every_tier = true;
    request.metrics = {"raw:r00c0", "pfm:INST_RETIRED", "sc:write"};
    request.perf.asked = true;
    request.syscalls.total = true;
    request.per_iteration.asked = true;
    request.profile.asked = true;
    const std::size_t tiers = make_tiers().size();
    TierSet set;
    set.open(request, make_tiers());

    CHECK(set.empty());
    CHECK(set.refusals().size() == tiers);
    std::set<std::string> refused;
    for (const Status& s : set.refusals()) {
        CAPTURE(s.capability);
        CHECK(s.state == Status::State::unavailable);
        CHECK_FALSE(s.reason.empty());
        refused.insert(s.capability);
    }
    CHECK(refused == std::set<std::string>{"perf", "raw", "pfm", "tier0", "syscalls",
                                           "per-iteration", "profile", "simulated"});
    for (const auto& d : set.catalog()) {
        CAPTURE(d.name);
        CHECK_FALSE(d.available);
        CHECK_FALSE(d.is_default);
        CHECK_FALSE(d.reason.empty());
    }
    CHECK(set.header_notes().empty());
    CHECK(set.meta().size() == 0);
}
