// glint::measure (<glint/measure.hpp>): the suite's batched protocol on a caller's callable,
// outside any runner. No assertion is about speed: counts of calls, the doubling's bounds, and
// the statistics' relations to the samples they summarise.
#include <doctest/doctest.h>

#include <glint/measure.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/timing/protocol.hpp"

namespace {

// The middle of `v` (the mean of the two middle values for an even count), sorted here.
double middle(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t mid = v.size() / 2;
    return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

// The statistics summarise exactly the samples returned: the median is their middle, the MAD
// the middle of their distances to it.
void check_summary(const glint::Timing& t, std::uint64_t samples) {
    CHECK(t.samples == samples);
    REQUIRE(t.sample_ns.size() == samples);
    CHECK(t.min_ns == *std::min_element(t.sample_ns.begin(), t.sample_ns.end()));
    CHECK(t.max_ns == *std::max_element(t.sample_ns.begin(), t.sample_ns.end()));
    const double median = middle(t.sample_ns);
    CHECK(t.median_ns == doctest::Approx(median).epsilon(1e-12));
    std::vector<double> distances;
    for (double x : t.sample_ns) distances.push_back(std::fabs(x - median));
    CHECK(t.mad_ns == doctest::Approx(middle(distances)).epsilon(1e-12));
}

}  // namespace

TEST_CASE("measure: pinned iterations run the body exactly samples x iterations times") {
    std::uint64_t calls = 0;
    const glint::Timing t = glint::measure([&] { ++calls; }, {.samples = 8, .iterations = 1000});
    CHECK(calls == 8 * 1000);  // docs/hot-loop.md's example
    CHECK(t.iterations_per_sample == 1000);
    check_summary(t, 8);
}

TEST_CASE("measure: samples are ns per iteration, and the doubling stops once a sample is long") {
    // Each iteration waits until steady_clock has advanced 1 µs: n iterations take >= n µs, so
    // a 10 µs target is always met by 16 iterations (it may stop earlier only when a stall
    // makes two smaller samples long), and every per-iteration sample is >= 1000 ns.
    auto one_microsecond = [] {
        const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(1);
        while (std::chrono::steady_clock::now() < end) {}
    };
    const glint::Timing t = glint::measure(one_microsecond, {.min_time_ns = 1e4, .samples = 8});
    CHECK(std::has_single_bit(t.iterations_per_sample));
    CHECK(t.iterations_per_sample <= 16);
    check_summary(t, 8);
    CHECK(t.min_ns >= 1000.0);
}

TEST_CASE("measure: a zero target keeps one iteration per sample") {
    std::uint64_t calls = 0;
    const glint::Timing t = glint::measure([&] { return ++calls; }, {.min_time_ns = 0});
    CHECK(t.iterations_per_sample == 1);
    CHECK(calls == 1 + 32);  // the doubling's one sample of 1 iteration, then 32 samples
    check_summary(t, 32);
}

TEST_CASE("measure: the default options are the suite's protocol (5 ms doubling, 32 samples)") {
    const glint::MeasureOptions defaults;
    const glint::engine::TimingConfig suite;
    CHECK(defaults.min_time_ns == suite.min_time_ns);
    CHECK(defaults.samples == suite.samples);
    CHECK(defaults.iterations == suite.pinned);
    std::uint64_t x = 1;
    const glint::Timing t = glint::measure([&] { x = glint::black_box(x + x); });
    check_summary(t, 32);
    CHECK(std::has_single_bit(t.iterations_per_sample));
}

TEST_CASE("measure: bad options are refused before the body runs, naming the field") {
    std::uint64_t calls = 0;
    auto body = [&] { ++calls; };
    auto refused = [&](const glint::MeasureOptions& options) -> std::string {
        try {
            glint::measure(body, options);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "";
    };
    CHECK(refused({.samples = 0}).find("MeasureOptions::samples") != std::string::npos);
    CHECK(refused({.min_time_ns = -1}).find("MeasureOptions::min_time_ns") != std::string::npos);
    CHECK(refused({.min_time_ns = std::numeric_limits<double>::quiet_NaN()}).find("min_time_ns") !=
          std::string::npos);
    CHECK(refused({.min_time_ns = std::numeric_limits<double>::infinity()}).find("min_time_ns") !=
          std::string::npos);
    CHECK(calls == 0);
}
