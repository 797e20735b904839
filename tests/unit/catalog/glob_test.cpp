#include <doctest/doctest.h>

#include "catalog/glob.hpp"

using namespace glint::catalog;

TEST_CASE("glob: literals, star, question mark, classes") {
    CHECK(glob_match("sort", "sort"));
    CHECK_FALSE(glob_match("sort", "sorts"));
    CHECK(glob_match("sort*", "sort/1000"));
    CHECK(glob_match("*", ""));
    CHECK(glob_match("*/asdf", "json.parse/asdf"));
    CHECK(glob_match("s?rt", "sort"));
    CHECK_FALSE(glob_match("s?rt", "srt"));
    CHECK(glob_match("cache-[mr]*", "cache-miss"));
    CHECK(glob_match("cache-[!x]*", "cache-miss"));
    CHECK_FALSE(glob_match("cache-[!m]*", "cache-miss"));
    CHECK(glob_match("n[0-9]", "n7"));
    CHECK_FALSE(glob_match("n[0-9]", "nx"));
    CHECK(glob_match("a*b*c", "axxbyyc"));
    CHECK_FALSE(glob_match("a*b*c", "axxbyy"));
}

TEST_CASE("glob: may a registration hold a selected case") {
    CHECK(glob_may_match_extension("json.parse/asdf", "json.parse"));
    CHECK(glob_may_match_extension("*/asdf", "anything"));
    CHECK(glob_may_match_extension("json*", "json.parse"));
    CHECK_FALSE(glob_may_match_extension("sort/x", "json.parse"));
    CHECK_FALSE(glob_may_match_extension("sort", "sort"));  // exact name: no case under it
}
