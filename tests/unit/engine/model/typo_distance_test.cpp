// How many typos turn one name into another (engine/model/typo_distance.hpp).
#include <doctest/doctest.h>

#include "engine/model/typo_distance.hpp"

using glint::engine::typo_distance;

TEST_CASE("typo distance: inserts, deletes and replacements count one each") {
    CHECK(typo_distance("", "") == 0);
    CHECK(typo_distance("abc", "") == 3);
    CHECK(typo_distance("", "pin") == 3);
    CHECK(typo_distance("pin", "pin") == 0);
    CHECK(typo_distance("add_chain", "add_chain") == 0);
    CHECK(typo_distance("filtr", "filter") == 1);
    CHECK(typo_distance("kitten", "sitting") == 3);
}

TEST_CASE("typo distance: a swap of neighbours is one typo, not two") {
    CHECK(typo_distance("bnech", "bench") == 1);
    CHECK(typo_distance("median", "medain") == 1);
    CHECK(typo_distance("ab", "ba") == 1);
    CHECK(typo_distance("abc", "ca") == 3);  // optimal string alignment: no edit of a swapped pair
}
