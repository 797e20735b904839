// The --profile flags (engine/cli/options.cpp): defaults, values, and what reaches the tiers.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/cli/options.hpp"

using namespace glint::engine;

TEST_CASE("profile options: off by default, and the defaults --profile runs with") {
    CHECK_FALSE(tier_request(parse_options(std::vector<const char*>{})).profile.asked);
    const ProfileRequest p =
        tier_request(parse_options(std::vector<const char*>{"--profile"})).profile;
    CHECK(p.asked);
    CHECK(p.hz == 10000);
    CHECK(p.samples == 2000);
    CHECK(p.time_ms == 1000);
    CHECK(p.folded_path.empty());
}

TEST_CASE("profile options: every flag parses, and any of them asks for the profile") {
    const ProfileRequest p = tier_request(parse_options(std::vector<const char*>{
                                              "--profile=4000", "--profile-samples=500",
                                              "--profile-time=2.5", "--profile-folded=out.folded"}))
                                 .profile;
    CHECK(p.asked);
    CHECK(p.hz == 4000);
    CHECK(p.samples == 500);
    CHECK(p.time_ms == 2.5);
    CHECK(p.folded_path == "out.folded");
    CHECK(parse_options(std::vector<const char*>{"--profile-samples=9"}).profile.asked);
    CHECK(parse_options(std::vector<const char*>{"--profile-folded=x"}).profile.asked);
}
