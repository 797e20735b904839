// The shift estimator and its rank interval, on fixed inputs computed by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

#include "engine/stats/shift.hpp"
#include "unit/engine/stats/all_pairs_reference.hpp"

using namespace glint::engine;

TEST_CASE("stats: the exact distribution of U counts every arrangement") {
    // 1 against 1: U is 0 or 1, one arrangement each.
    const auto one = rank_sum_cdf(1, 1);
    REQUIRE(one.size() == 2);
    CHECK(one[0] == doctest::Approx(0.5));
    CHECK(one[1] == doctest::Approx(1.0));
    // 5 against 5: C(10,5) = 252 arrangements; 1, 1, 2, 3 of them give U = 0, 1, 2, 3.
    const auto five = rank_sum_cdf(5, 5);
    REQUIRE(five.size() == 26);
    CHECK(five[0] == doctest::Approx(1.0 / 252));
    CHECK(five[2] == doctest::Approx(4.0 / 252));
    CHECK(five[3] == doctest::Approx(7.0 / 252));
    CHECK(five[25] == doctest::Approx(1.0));
    // Symmetric: P(U <= u) = 1 - P(U <= mn - u - 1).
    for (std::size_t u = 0; u + 1 < five.size(); ++u)
        CHECK(five[u] == doctest::Approx(1 - five[24 - u]));
    // Unequal sizes: 2 against 3 has C(5,2) = 10 arrangements, U = 0 in one.
    const auto unequal = rank_sum_cdf(2, 3);
    REQUIRE(unequal.size() == 7);
    CHECK(unequal[0] == doctest::Approx(0.1));
    CHECK(unequal[1] == doctest::Approx(0.2));
    CHECK(unequal[2] == doctest::Approx(0.4));
}

TEST_CASE("stats: Hodges-Lehmann shift of a known shift, unequal sizes, ties and identical sets") {
    const std::vector<double> a{1, 2, 3, 4, 5}, shifted{11, 12, 13, 14, 15};
    CHECK(hodges_lehmann_shift(a, shifted) == doctest::Approx(10));
    CHECK(hodges_lehmann_shift(shifted, a) == doctest::Approx(-10));
    // 3 against 4: the 12 differences sorted are -1 0 1 1 2 3 3 4 5 5 6 7; median (3 + 3) / 2.
    const std::vector<double> three{1, 2, 3}, four{2, 4, 6, 8};
    CHECK(hodges_lehmann_shift(three, four) == doctest::Approx(3));
    const std::vector<double> tied{1, 1, 1};
    CHECK(hodges_lehmann_shift(tied, tied) == 0);
    CHECK(hodges_lehmann_shift(a, a) == 0);
    CHECK(std::isnan(hodges_lehmann_shift({}, a)));
}

TEST_CASE("stats: Moses interval, exact for small sets, unattainable for too few values") {
    // 5 against 5 shifted by 10: differences 6..14 with counts 1 2 3 4 5 4 3 2 1. P(U <= 2) =
    // 4/252 <= 2.5% < P(U <= 3), so k = 3: the 3rd smallest (7) and the 3rd largest (13).
    const std::vector<double> a{1, 2, 3, 4, 5}, b{11, 12, 13, 14, 15};
    const auto i = shift_interval(a, b, 0.95);
    REQUIRE(i);
    CHECK(i->exact);
    CHECK(i->low == 7);
    CHECK(i->high == 13);
    CHECK(i->coverage == doctest::Approx(1 - 8.0 / 252));
    // 3 against 3 reaches 90% at most (P(U = 0) = 1/20 each tail): none at 95%, [min, max] at 90%.
    const std::vector<double> x{1, 2, 3}, y{4, 5, 6};
    CHECK_FALSE(shift_interval(x, y, 0.95));
    const auto ninety = shift_interval(x, y, 0.90);
    REQUIRE(ninety);
    CHECK(ninety->low == 1);
    CHECK(ninety->high == 5);
    // 4 against 4 reaches 97.1% (P(U = 0) = 1/70).
    const std::vector<double> p{1, 2, 3, 4}, q{2, 3, 4, 5};
    const auto four = shift_interval(p, q, 0.95);
    REQUIRE(four);
    CHECK(four->coverage == doctest::Approx(1 - 2.0 / 70));
    CHECK(four->low == -2);  // the extreme differences: the interval is [min, max]
    CHECK(four->high == 4);
    // 3 against 5 reach 96.4% (P(U = 0) = 1/56): unequal counts can do with 3 on one side.
    const std::vector<double> five{4, 5, 6, 7, 8};
    const auto unequal = shift_interval(x, five, 0.95);
    REQUIRE(unequal);
    CHECK(unequal->coverage == doctest::Approx(1 - 2.0 / 56));
    // Identical, fully tied sets: the interval is the single point 0.
    const std::vector<double> same(6, 5.0);
    const auto tied = shift_interval(same, same, 0.95);
    REQUIRE(tied);
    CHECK(tied->low == 0);
    CHECK(tied->high == 0);
    CHECK_FALSE(shift_interval({}, a, 0.95));
}

TEST_CASE("stats: Moses interval by the normal approximation for large sets") {
    // 40 against 40 (beyond the exact limit), b = a + 100 exactly: every order statistic of the
    // differences is 100 + (j - i), so the interval is symmetric around 100.
    std::vector<double> a(40), b(40);
    std::iota(a.begin(), a.end(), 0.0);
    for (std::size_t k = 0; k < b.size(); ++k) b[k] = a[k] + 100;
    const auto i = shift_interval(a, b, 0.95);
    REQUIRE(i);
    CHECK_FALSE(i->exact);
    // k = floor(800 - 1.95996 * sqrt(1600 * 81 / 12)) = floor(800 - 203.65) = 596.
    const double sd = std::sqrt(1600.0 * 81 / 12);
    const auto k = static_cast<std::size_t>(std::floor(800 - normal_quantile(0.975) * sd));
    CHECK(k == 596);
    // The differences 100 + d, d = j - i, occur 40 - |d| times each: 595 of them are at most 94,
    // so the 596th smallest is 95 and the 596th largest 105.
    CHECK(i->low == 95);
    CHECK(i->high == 105);
}

TEST_CASE("stats: normal quantile and thinning to order statistics") {
    CHECK(normal_quantile(0.975) == doctest::Approx(1.959964).epsilon(1e-6));
    CHECK(normal_quantile(0.5) == doctest::Approx(0).epsilon(1e-9));
    std::vector<double> values(1000);
    std::iota(values.begin(), values.end(), 1.0);
    const auto thin = thin_to_quantiles(values, 11);
    REQUIRE(thin.size() == 11);
    CHECK(thin.front() == 1);
    CHECK(thin.back() == 1000);
    CHECK(thin[5] == 501);  // round(99.9 * 5) = 500: the 501st value
    const std::vector<double> few{3, 1, 2};
    CHECK(thin_to_quantiles(few, 11) == std::vector<double>{1, 2, 3});
}

using testing::reference_rank;
using testing::sorted_differences;

TEST_CASE("stats: shift and interval equal the materialised differences on random sets with ties") {
    std::mt19937 rng(2026);
    for (int round = 0; round < 300; ++round) {
        const std::size_t m = 1 + rng() % 70, n = 1 + rng() % 70;
        // Few distinct values in some rounds (heavy ties), continuous values in others.
        const bool tied = round % 2 == 0;
        std::uniform_real_distribution<double> spread(-3, 3);
        auto draw = [&] { return tied ? static_cast<double>(rng() % 5) * 0.25 : spread(rng); };
        std::vector<double> a(m), b(n);
        for (double& x : a) x = draw();
        for (double& y : b) y = draw() + (round % 3 == 0 ? 0.5 : 0.0);
        const auto d = sorted_differences(a, b);
        const std::size_t mid = d.size() / 2;
        const double median = d.size() % 2 ? d[mid] : d[mid - 1] + (d[mid] - d[mid - 1]) / 2;
        CAPTURE(round);
        CHECK(hodges_lehmann_shift(a, b) == median);
        for (double level : {0.90, 0.95, 0.99}) {
            const auto i = shift_interval(a, b, level);
            const auto k = reference_rank(m, n, level);
            REQUIRE(i.has_value() == k.has_value());
            if (!i) continue;
            CHECK(i->low == d[*k - 1]);
            CHECK(i->high == d[d.size() - *k]);
        }
    }
}

TEST_CASE("stats: shift and interval of 100000 values against themselves need no m x n memory") {
    // 10^10 differences would take 80 GB: the selection must not materialise them.
    std::vector<double> a(100000);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> spread(0, 1);
    for (double& x : a) x = spread(rng);
    CHECK(hodges_lehmann_shift(a, a) == 0);
    const auto i = shift_interval(a, a, 0.95);
    REQUIRE(i);
    CHECK(i->low < 0);
    CHECK(i->high == -i->low);  // the differences of a set with itself are symmetric around 0
}
