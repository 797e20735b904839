// The core-speed probe and its judgement: slow chunks counted against the fastest, interrupted
// ones apart, a warning from a tenth of them slow, JSON that says what was measured.
#include <doctest/doctest.h>

#include <chrono>
#include <vector>

#include "engine/environment/core_speed.hpp"

using namespace glint::engine;

TEST_CASE("core speed: a steady core reads no slow chunk and no warning") {
    const std::vector<double> steady(100, 0.2709);
    const auto s = judge_core_speed(steady);
    REQUIRE(s);
    CHECK(s->chunks == 100);
    CHECK(s->interrupted == 0);
    CHECK(s->fastest_ns == doctest::Approx(0.2709));
    CHECK(s->slow_share == 0);
    CHECK_FALSE(check_core_speed(*s));
}

TEST_CASE(
    "core speed: a core slowed for a third of the chunks is warned of, interrupted chunks apart") {
    std::vector<double> chunks(60, 0.2709);
    chunks.insert(chunks.end(), 30, 0.5);   // the host's slow state (1.85x)
    chunks.insert(chunks.end(), 10, 30.0);  // a tick or another task: far above, not "slow"
    const auto s = judge_core_speed(chunks);
    REQUIRE(s);
    CHECK(s->chunks == 90);
    CHECK(s->interrupted == 10);
    CHECK(s->p90_ns == doctest::Approx(0.5));
    CHECK(s->median_ns == doctest::Approx(0.2709));
    CHECK(s->slow_share == doctest::Approx(1.0 / 3));
    const auto w = check_core_speed(*s);
    REQUIRE(w);
    CHECK(w->check == "core-speed");
    CHECK(w->problem.find(
              "33% of 90 probes of a dependent add at the run's start and end ran over 10% "
              "slower than the fastest (0.271 ns; median 0.271, 90th percentile 0.5: 1.85x)") !=
          std::string::npos);
    CHECK_FALSE(w->remedy.empty());
}

TEST_CASE("core speed: below a tenth slow, or within 10% of the fastest, is no warning") {
    std::vector<double> few(95, 1.0);
    few.insert(few.end(), 5, 2.0);
    CHECK_FALSE(check_core_speed(*judge_core_speed(few)));
    std::vector<double> close(50, 1.0);
    close.insert(close.end(), 50, 1.09);
    CHECK(judge_core_speed(close)->slow_share == 0);
}

TEST_CASE("core speed: nothing timed is null in JSON, never 0") {
    CHECK_FALSE(judge_core_speed(std::vector<double>{}));
    CHECK_FALSE(judge_core_speed(std::vector<double>{0.0, -1.0}));
    CHECK(core_speed_json(std::nullopt, std::nullopt, std::nullopt).is_null());
    const auto s = judge_core_speed(std::vector<double>{1.0, 1.5});
    const Json j = core_speed_json(s, s, std::nullopt);
    CHECK(j.at("chunks").as_number() == 2);
    CHECK(j.at("slowShare").as_number() == 0.5);
    CHECK(j.at("start").at("fastestNsPerStep").as_number() == 1.0);
    CHECK(j.at("end").is_null());
}

TEST_CASE("core speed: the probe times chunks for about its span, each a positive time per step") {
    const auto begin = std::chrono::steady_clock::now();
    const auto chunks = probe_core_speed(std::chrono::milliseconds(2));
    CHECK(std::chrono::steady_clock::now() - begin >=
          std::chrono::milliseconds(2));  // it probes its whole span
    // Hundreds of chunks on a quiet core; a thread that lost the CPU for the span times one
    // (seen in the ASan tree beside a busy loop), so only one is certain.
    REQUIRE_FALSE(chunks.empty());
    for (double c : chunks) CHECK(c > 0);
    const auto s = judge_core_speed(chunks);
    REQUIRE(s);
    CHECK(s->chunks + s->interrupted == chunks.size());
    CHECK(s->fastest_ns <= s->median_ns);
    CHECK(s->median_ns <= s->p90_ns);
}
