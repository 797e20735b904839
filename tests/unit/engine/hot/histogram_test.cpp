// <glint/histogram.hpp>: bucket arithmetic and percentiles against data whose answers are known.
#include <doctest/doctest.h>

#include <glint/histogram.hpp>

#include <cstdint>
#include <memory>
#include <string>

#include "engine/model/json.hpp"

using glint::hot::Histogram;

namespace {

std::unique_ptr<Histogram> fresh() { return std::make_unique<Histogram>(); }

}  // namespace

TEST_CASE("histogram: buckets are exact below 1024 and at most 1/256 wide above") {
    for (std::uint64_t v = 0; v < Histogram::kExact; ++v) {
        CHECK(Histogram::bucket_of(v) == v);
        CHECK(Histogram::bucket_low(v) == v);
        CHECK(Histogram::bucket_high(v) == v);
    }
    // Every bucket above the exact range: contiguous, and its values map back to it.
    for (std::size_t b = Histogram::kExact; b + 1 < Histogram::kBuckets; ++b) {
        const std::uint64_t low = Histogram::bucket_low(b);
        const std::uint64_t high = Histogram::bucket_high(b);
        REQUIRE(Histogram::bucket_low(b + 1) == high + 1);
        REQUIRE(Histogram::bucket_of(low) == b);
        REQUIRE(Histogram::bucket_of(high) == b);
        REQUIRE((high - low + 1) * 256 <= low);  // width <= low / 256
    }
    CHECK(Histogram::bucket_low(Histogram::kExact) == 1024);
    CHECK(Histogram::bucket_high(Histogram::kExact) == 1027);
    CHECK(Histogram::bucket_high(Histogram::kBuckets - 1) == (std::uint64_t{1} << 40) - 1);
    CHECK(Histogram::bucket_of(std::uint64_t{1} << 40) == Histogram::kBuckets - 1);
    CHECK(Histogram::bucket_of(UINT64_MAX) == Histogram::kBuckets - 1);
}

TEST_CASE("histogram: nearest-rank percentiles of 1..1000") {
    auto h = fresh();
    for (std::uint64_t v = 1000; v >= 1; --v) h->record(v);  // order does not matter
    const Histogram::Summary s = h->summary();
    CHECK(s.count == 1000);
    CHECK(s.min == 1);
    CHECK(s.p50 == 500);
    CHECK(s.p90 == 900);
    CHECK(s.p99 == 990);
    CHECK(s.p999 == 999);
    CHECK(s.max == 1000);
    CHECK(s.mean == doctest::Approx(500.5));
    CHECK(h->percentile(0.1) == 1);
    CHECK(h->percentile(0) == 1);
    CHECK(h->percentile(100) == 1000);
    CHECK(h->percentile(50.05) == 501);  // rank ceil(500.5) = 501
}

TEST_CASE("histogram: a skewed distribution (90% fast, 9% slow, 1% very slow)") {
    auto h = fresh();
    for (int i = 0; i < 1000; ++i) h->record(i % 100 == 0 ? 5000 : i % 10 == 0 ? 700 : 100);
    const Histogram::Summary s = h->summary();
    CHECK(s.p50 == 100);
    CHECK(s.p90 == 100);    // rank 900: the 900 fast calls
    CHECK(s.p99 == 700);    // rank 990
    CHECK(s.p999 == 5000);  // rank 999; its bucket [4992, 5007] clamps to max
    CHECK(s.max == 5000);
    CHECK(s.min == 100);
    CHECK(s.mean == doctest::Approx((900 * 100 + 90 * 700 + 10 * 5000) / 1000.0));
}

TEST_CASE("histogram: above 1024 a percentile is its bucket's upper end, never below the value") {
    auto h = fresh();
    h->record(1'000'000);
    h->record(1'000'001);
    h->record(2'000'000);
    // 1'000'000 lies in [999'424, 1'001'471] (buckets are 2048 wide in [2^19, 2^20)).
    CHECK(h->percentile(30) == 1'001'471);
    CHECK(h->percentile(30) >= 1'000'000);
    CHECK(h->percentile(30) - 1'000'000 <= 1'000'000 / 256);
    CHECK(h->max() == 2'000'000);
    CHECK(h->percentile(99) == 2'000'000);  // clamped to max
    // Values of 2^40 and more keep an exact max.
    h->record(std::uint64_t{5} << 41);
    CHECK(h->max() == std::uint64_t{5} << 41);
    CHECK(h->percentile(99.9) == std::uint64_t{5} << 41);
}

TEST_CASE("histogram: empty, clear and merge") {
    auto h = fresh();
    CHECK(h->count() == 0);
    CHECK(h->percentile(50) == 0);
    CHECK(h->min() == 0);
    CHECK(h->max() == 0);
    CHECK(h->mean() == 0);
    h->record(7);
    h->record(9);
    auto other = fresh();
    other->record(3);
    other->record(11);
    h->merge(*other);
    CHECK(h->count() == 4);
    CHECK(h->min() == 3);
    CHECK(h->max() == 11);
    CHECK(h->percentile(50) == 7);
    h->clear();
    CHECK(h->count() == 0);
    CHECK(h->max() == 0);
    h->record(42);
    CHECK(h->min() == 42);
}

TEST_CASE("histogram: JSON carries the percentiles and the non-empty buckets") {
    auto h = fresh();
    for (std::uint64_t v = 1; v <= 1000; ++v) h->record(v);
    h->record(4000);
    const glint::engine::Json j = glint::engine::Json::parse(glint::hot::to_json(*h));
    CHECK(j.at("count").as_number() == 1001);
    CHECK(j.at("p50").as_number() == 501);
    CHECK(j.at("p99.9").as_number() == 1000);
    CHECK(j.at("max").as_number() == 4000);
    const auto& buckets = j.at("buckets").as_array();
    REQUIRE(buckets.size() == 1001);
    CHECK(buckets.front().as_array()[0].as_number() == 1);
    // 4000 lies in [2^11, 2^12), whose buckets are 8 wide: [4000, 4007].
    CHECK(buckets.back().as_array()[0].as_number() == 4000);
    CHECK(buckets.back().as_array()[1].as_number() == 4007);
    CHECK(buckets.back().as_array()[2].as_number() == 1);
}

TEST_CASE("histogram: an empty histogram's JSON statistics are null") {
    auto h = fresh();
    const glint::engine::Json j = glint::engine::Json::parse(glint::hot::to_json(*h));
    CHECK(j.at("count").as_number() == 0);
    CHECK(j.at("p50").is_null());
    CHECK(j.at("max").is_null());
    CHECK(j.at("buckets").as_array().empty());
}

TEST_CASE("histogram: text has the summary line and one bar per value over a small range") {
    auto h = fresh();
    for (int i = 0; i < 90; ++i) h->record(3);
    for (int i = 0; i < 10; ++i) h->record(5);
    const std::string text = glint::hot::to_text(*h, {.title = "loop", .unit = "instructions"});
    CHECK(text.find("loop\n") == 0);
    CHECK(text.find("n=100 min=3 p50=3 p90=3 p99=5 p99.9=5 max=5 mean=3.20 (instructions)") !=
          std::string::npos);
    CHECK(text.find("  3 │████████████████████████████████████████│  90.0% 90\n") !=
          std::string::npos);
    CHECK(text.find("  4 │                                        │   0.0% 0\n") !=
          std::string::npos);
    CHECK(text.find("  5 │████▍                                   │  10.0% 10\n") !=
          std::string::npos);
    CHECK(glint::hot::to_text(*fresh()).find("no records") != std::string::npos);
}

TEST_CASE("histogram: text over a wide range uses bins of equal ratio") {
    auto h = fresh();
    for (int i = 0; i < 90; ++i) h->record(100);
    for (int i = 0; i < 10; ++i) h->record(10'000);
    const std::string text = glint::hot::to_text(*h, {.rows = 4});
    // [100, 10000] in 4 bins of ratio ~3.16: 100–315, 316–999, 1000–3162, 3163–10000.
    CHECK(text.find("     100–315 │████████████████████████████████████████│  90.0% 90\n") !=
          std::string::npos);
    CHECK(text.find("     316–999 │") != std::string::npos);
    CHECK(text.find("  3163–10000 │████▍") != std::string::npos);
    CHECK(text.find("│  10.0% 10\n") != std::string::npos);
}
