// Client metrics (engine/tiers/client_metrics.hpp): each row's cells from its own amounts and
// median, and the rule for an iter's metrics beside its registration's.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/tiers/client_metrics.hpp"

using namespace glint::engine;
using glint::Metric;

namespace {

TimingSummary median_of(double ns) {
    TimingSummary t;
    t.median_ns = ns;
    return t;
}

}  // namespace

TEST_CASE("client metrics: each row's rate is its own amount over its own median") {
    const TimingSummary small = median_of(8), large = median_of(4096);
    CHECK(client_cells({Metric{"B", 16}}, &small)[0].value == doctest::Approx(2e9));
    CHECK(client_cells({Metric{"B", 4096}}, &large)[0].value == doctest::Approx(1e9));
    const auto level = client_cells({Metric{"words", 512, Metric::level}}, &large);
    CHECK(level[0].name == "words");
    CHECK(level[0].value == 512);
    CHECK(std::isnan(client_cells({Metric{"B", 16}}, nullptr)[0].value));  // an error row: null
}

TEST_CASE(
    "client metrics: an iter's metric replaces the registration's of the same column, adds "
    "others") {
    const std::vector<Metric> registration{Metric{"B", 1}, Metric{"call", 1}};
    const auto row =
        merged_metrics(registration, {Metric{"B", 4096}, Metric{"words", 512, Metric::level}});
    REQUIRE(row.size() == 3);
    CHECK(row[0].unit == "B");
    CHECK(row[0].amount == 4096);  // the iter's
    CHECK(row[1].unit == "call");  // the registration's, kept
    CHECK(row[2].unit == "words");
    // Same unit, other mode: another column ("B" beside "B/s"), so both stay.
    const auto both = merged_metrics(registration, {Metric{"B", 7, Metric::level}});
    REQUIRE(both.size() == 3);
    CHECK(both[0].amount == 1);
    CHECK(client_descriptor(both[2]).name == "B");
    CHECK(merged_metrics(registration, {}).size() == 2);
}

TEST_CASE("client metrics: merging a family appends new columns only, and says how many") {
    std::vector<glint::catalog::MetricDescriptor> family;
    CHECK(merge_client_family(family, {Metric{"B", 1}, Metric{"B", 2}}) == 1);
    CHECK(merge_client_family(family, {Metric{"B", 3}, Metric{"elem", 1}}) == 1);
    REQUIRE(family.size() == 2);
    CHECK(family[0].name == "B/s");
    CHECK(family[1].name == "elem/s");
    CHECK(family[1].source == "client");
}
