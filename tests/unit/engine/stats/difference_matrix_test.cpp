// Selection among the pairwise differences against the straightforward reference: every
// difference materialised and sorted (kept here, never in the product). Exact equality: a
// selection returns an element of the matrix.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/stats/difference_matrix.hpp"
#include "engine/stats/shift.hpp"
#include "unit/engine/stats/all_pairs_reference.hpp"

using namespace glint::engine;

using testing::reference_rank;
using testing::sorted_differences;

namespace {

struct Case {
    std::string what;
    std::vector<double> a, b;
};

// The corpus: ties, equal samples, tiny sets, 256 a side (glint-compare's thinned sets),
// shifted and scaled distributions, unsorted input, logs of timings as the verdicts take them.
std::vector<Case> corpus() {
    std::mt19937_64 rng(44);
    const auto uniform = [&](double lo, double hi) {
        return lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1.0p-53;
    };
    const auto draw = [&](std::size_t n, double shift, double spread, int levels) {
        std::vector<double> v(n);
        for (double& x : v)
            x = levels ? shift + spread * static_cast<double>(rng() % levels)
                       : shift + spread * uniform(-1, 1);
        return v;
    };
    std::vector<Case> out;
    out.push_back({"one against one", {3}, {5}});
    out.push_back({"one against two", {3}, {5, 1}});
    out.push_back({"two against three", {2, 1}, {0, 4, 4}});
    out.push_back({"3 against 3, all equal", {7, 7, 7}, {7, 7, 7}});
    out.push_back({"equal samples, 256 a side", draw(256, 4, 0, 1), draw(256, 4, 0, 1)});
    out.push_back({"equal samples shifted", draw(40, 4, 0, 1), draw(60, 5, 0, 1)});
    out.push_back({"heavy ties, 256 a side", draw(256, 0, 0.25, 4), draw(256, 0.25, 0.25, 4)});
    out.push_back({"ties, unequal sizes", draw(17, 0, 1, 3), draw(90, 0, 1, 5)});
    out.push_back({"continuous, 256 a side", draw(256, 0, 1, 0), draw(256, 0, 1, 0)});
    out.push_back({"shifted, 256 a side", draw(256, 0, 1, 0), draw(256, 1.5, 1, 0)});
    out.push_back({"far apart, 256 a side", draw(256, 0, 1, 0), draw(256, 100, 1, 0)});
    out.push_back({"scaled", draw(120, 0, 1, 0), draw(80, 0, 9, 0)});
    out.push_back({"1 against 256", draw(1, 0, 1, 0), draw(256, 0, 1, 0)});
    out.push_back({"256 against 2", draw(256, 0, 1, 0), draw(2, 0, 1, 0)});
    std::vector<double> logs_a, logs_b;
    for (int i = 0; i < 256; ++i) {
        logs_a.push_back(std::log(100 * std::exp(0.08 * uniform(-2, 2))));
        logs_b.push_back(std::log(103 * std::exp(0.08 * uniform(-2, 2))));
    }
    out.push_back({"log timings, 3% slower", logs_a, logs_b});
    for (int round = 0; round < 40; ++round) {  // sizes around the exact/normal boundary
        const std::size_t m = 1 + rng() % 40, n = 1 + rng() % 40;
        out.push_back({"random " + std::to_string(round), draw(m, 0, 1, round % 3 ? 0 : 6),
                       draw(n, round % 2 ? 0.3 : 0, 1, round % 3 ? 0 : 6)});
    }
    return out;
}

}  // namespace

TEST_CASE("difference matrix: every selected rank is the sorted differences' element") {
    for (const Case& c : corpus()) {
        CAPTURE(c.what);
        const std::vector<double> d = sorted_differences(c.a, c.b);
        const DifferenceMatrix matrix(c.a, c.b);
        REQUIRE(matrix.size() == d.size());
        // Every rank of the smaller matrices; for the large ones a spread of ranks, the ends
        // and the middle always.
        const std::size_t step = d.size() <= 2000 ? 1 : d.size() / 397;
        for (std::size_t k = 0; k < d.size(); k += step) CHECK(matrix.select(k) == d[k]);
        for (std::size_t k : {std::size_t{0}, d.size() / 2, d.size() - 1})
            CHECK(matrix.select(k) == d[k]);
        for (std::size_t k = 0; k < d.size(); k += step) {
            const double v = d[k];
            const auto below =
                static_cast<std::size_t>(std::lower_bound(d.begin(), d.end(), v) - d.begin());
            CHECK(matrix.count_below(v) == below);
            CHECK(matrix.largest_below(v) == (below ? d[below - 1] : v));
        }
    }
}

TEST_CASE("difference matrix: shift and interval equal the all-pairs reference on the corpus") {
    for (const Case& c : corpus()) {
        CAPTURE(c.what);
        const std::vector<double> d = sorted_differences(c.a, c.b);
        const std::size_t mid = d.size() / 2;
        const double median = d.size() % 2 ? d[mid] : d[mid - 1] + (d[mid] - d[mid - 1]) / 2;
        CHECK(hodges_lehmann_shift(c.a, c.b) == median);
        for (double level : {0.90, 0.95, 0.99}) {
            CAPTURE(level);
            const auto k = reference_rank(c.a.size(), c.b.size(), level);
            const auto alone = shift_interval(c.a, c.b, level);
            const ShiftEstimate both = estimate_shift(c.a, c.b, level);
            CHECK(both.shift == median);
            REQUIRE(alone.has_value() == k.has_value());
            REQUIRE(both.interval.has_value() == k.has_value());
            if (!k) continue;
            CHECK(alone->low == d[*k - 1]);
            CHECK(alone->high == d[d.size() - *k]);
            CHECK(both.interval->low == d[*k - 1]);
            CHECK(both.interval->high == d[d.size() - *k]);
            CHECK(both.interval->coverage == alone->coverage);
            CHECK(both.interval->exact == alone->exact);
        }
    }
    const ShiftEstimate empty = estimate_shift({}, std::vector<double>{1.0}, 0.95);
    CHECK(std::isnan(empty.shift));
    CHECK(!empty.interval);
}
