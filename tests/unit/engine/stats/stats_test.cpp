#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/stats/summary.hpp"

using namespace glint::engine;

TEST_CASE("median of odd and even sets") {
    std::vector<double> odd{5, 1, 3};
    CHECK(median(odd) == 3);
    std::vector<double> even{4, 1, 3, 2};
    CHECK(median(even) == 2.5);
    std::vector<double> one{7};
    CHECK(median(one) == 7);
    std::vector<double> none;
    CHECK(std::isnan(median(none)));
}

TEST_CASE("median absolute deviation on a known set") {
    // median 2; deviations 1,1,0,0,2,4,7 -> median 1
    std::vector<double> v{1, 1, 2, 2, 4, 6, 9};
    CHECK(median(v) == 2);
    CHECK(median_abs_deviation(v) == 1);
    std::vector<double> constant{3, 3, 3, 3};
    CHECK(median_abs_deviation(constant) == 0);
}

TEST_CASE("summarize gives median, MAD, min and max") {
    std::vector<double> v{10, 12, 11, 50, 9};
    auto s = summarize(v);
    CHECK(s.median == 11);
    CHECK(s.mad == 1);
    CHECK(s.min == 9);
    CHECK(s.max == 50);
}
