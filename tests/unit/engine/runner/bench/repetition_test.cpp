// --bench-repeat: merging a case's repetitions, and the silent table of the early ones.
#include <doctest/doctest.h>

#include <vector>

#include "engine/runner/bench/repetition.hpp"
#include "engine/timing/protocol.hpp"

using namespace glint::engine;

namespace {

Row timed(std::string registration, std::string name, std::vector<double> samples,
          std::uint64_t iterations = 64) {
    Row r;
    r.registration = std::move(registration);
    r.name = std::move(name);
    r.timing = summarize_samples(std::move(samples), iterations, false);
    return r;
}

struct Recorder final : TableReporter {
    std::vector<std::string> calls;
    void header(const std::vector<std::string>&) override { calls.push_back("header"); }
    void begin_group(const GroupInfo&) override { calls.push_back("begin"); }
    void case_started(const std::string& n) override { calls.push_back("start " + n); }
    void case_progress() override { calls.push_back("progress"); }
    void case_finished(const Row& r) override { calls.push_back("finish " + r.name); }
    void end_group() override { calls.push_back("end"); }
};

}  // namespace

TEST_CASE("repetition: the headline is the median of repetition medians, samples are pooled") {
    const std::vector<TimingSummary> reps = {summarize_samples({1, 2, 3, 4, 5}, 8, false),
                                             summarize_samples({10, 11, 12}, 8, false),
                                             summarize_samples({20}, 8, false)};
    const TimingSummary m = merge_repetitions(reps);
    CHECK(m.repetition_median_ns == std::vector<double>{3, 11, 20});
    CHECK(m.median_ns == 11);  // the median of the medians, not of the pooled samples (5)
    CHECK(m.sample_ns == std::vector<double>{1, 2, 3, 4, 5, 10, 11, 12, 20});
    CHECK(m.samples == 9);
    CHECK(m.iterations_per_sample == 8);
    CHECK(m.min_ns == 1);
    CHECK(m.max_ns == 20);
    CHECK(m.mad_ns == 4);  // of the pool: |x - 5| has median 4
    // One repetition is itself.
    const TimingSummary one = merge_repetitions({reps[0]});
    CHECK(one.median_ns == 3);
    CHECK(one.repetition_median_ns == std::vector<double>{3});
}

TEST_CASE("repetition: rows merge by identity, a failure in any repetition fails the row") {
    Repetitions r(3);
    r.begin(1);
    CHECK_FALSE(r.last());
    Row failing = timed("b", "impl", {1});
    failing.error = "boom";
    failing.timing.reset();
    r.keep({timed("a", "impl", {1, 2, 3}, 128), failing});
    r.begin(2);
    r.keep({timed("a", "impl", {3, 4, 5}, 128), timed("b", "impl", {1, 1, 1})});
    r.begin(3);
    CHECK(r.last());
    // Same name, other registration: not merged into a's repetitions.
    CHECK(r.pinned_iterations(timed("a", "impl", {})) == 128);
    CHECK(r.pinned_iterations(timed("c", "impl", {})) == 0);
    Row a = timed("a", "impl", {5, 6, 7}, 128);
    r.merge(a);
    REQUIRE(a.timing);
    CHECK(a.timing->repetition_median_ns == std::vector<double>{2, 4, 6});
    CHECK(a.timing->median_ns == 4);
    Row b = timed("b", "impl", {1, 1, 1});
    r.merge(b);
    CHECK(b.is_error());
    CHECK(b.error == "repetition 1: boom");
    CHECK_FALSE(b.timing);
}

TEST_CASE("repetition: the gated table drops every call while muted") {
    Recorder inner;
    GatedTable gate(inner);
    gate.mute(true);
    gate.header({"x"});
    gate.begin_group({});
    gate.case_started("a");
    gate.case_progress();
    gate.case_finished(timed("a", "a", {1}));
    gate.end_group();
    CHECK(inner.calls.empty());
    gate.mute(false);
    gate.begin_group({});
    gate.case_finished(timed("a", "a", {1}));
    CHECK(inner.calls == std::vector<std::string>{"begin", "finish a"});
}

TEST_CASE(
    "repetition: the ± of repeated rows covers the repetitions' medians, a disturbed one marks "
    "it") {
    std::vector<TimingSummary> reps = {summarize_samples({1, 2, 3, 4, 5}, 8, false),
                                       summarize_samples({10, 11, 12}, 8, false),
                                       summarize_samples({20}, 8, false)};
    reps[0].estimator = "clean-median";
    reps[0].clean_samples = 5;
    reps[0].disturbed_samples = 0;
    reps[1].estimator = "all-median";
    reps[1].clean_samples = 1;
    reps[1].disturbed_samples = 2;
    reps[2].estimator = "clean-median";
    reps[2].spread_ns = 30;
    TimingSummary m = merge_repetitions(reps);
    CHECK(m.spread_ns == 30);  // the widest repetition's ±
    CHECK(m.estimator == "all-median");
    CHECK(*m.clean_samples == 6);
    CHECK(*m.disturbed_samples == 2);
    reps[2].spread_ns = NAN;  // its MAD (0) then: the medians' range, 20 - 3, is wider
    m = merge_repetitions(reps);
    CHECK(m.spread_ns == 17);
}
