// glint::iter_batched's batch (Batch::prepare) through the timing protocol and the runner's
// window helpers: setup runs before each window and never inside it, windows respect the cap,
// every input is consumed once and in order, and a setup that costs far more than the body
// shows neither in the timed samples nor in the time a case may take.
#include <doctest/doctest.h>

#include <glint/bench.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/runner/session.hpp"
#include "engine/tiers/tier_set.hpp"
#include "engine/timing/clock.hpp"
#include "engine/timing/protocol.hpp"
#include "engine/timing/timed_windows.hpp"
#include "engine/timing/windows.hpp"
#include "os/thread_usage.hpp"
#include "support/capturing_session.hpp"
#include "support/skip.hpp"

using namespace glint::engine;

namespace {

// The batch glint::iter_batched builds, over the given callables.
template <class Setup, class F>
struct Batched {
    using State = glint::detail::BatchedInputs<Setup, F>;
    State state;
    glint::detail::Batch batch;
    Batched(Setup& s, F& f, std::uint64_t cap)
        : state{s, f, {}, 0},
          batch{&glint::detail::run_inputs<State>, &state, &glint::detail::prepare_inputs<State>,
                cap} {}
};

void spin_ns(std::int64_t ns) {
    const std::int64_t start = now_ns();
    while (now_ns() - start < ns) {}
}

}  // namespace

TEST_CASE("iter_batched: each window's inputs are built before it, consumed once and in order") {
    std::string log;
    int made = 0;
    std::vector<int> seen;
    bool setup_in_window = false;
    bool in_window = false;
    auto setup = [&] {
        setup_in_window = setup_in_window || in_window;
        log += 'S';
        return made++;
    };
    auto fn = [&](int& input) {
        in_window = true;
        log += 'F';
        seen.push_back(input);
        in_window = false;
    };
    Batched<decltype(setup), decltype(fn)> b(setup, fn, 4);
    TimingConfig config;
    config.pinned = 10;
    config.samples = 2;
    // The order of calls is checked, not their time: windows of 4 calls of a few ns can be
    // shorter than half the clock's bracket on a fast machine, which the protocol refuses.
    config.refuse_optimized_away = false;
    const TimingSummary t = time_batched(b.batch, config);
    CHECK(t.iterations_per_sample == 10);
    // A probe of 10 calls one by one sizes the windows; then, the call being far below 20 us,
    // windows of the cap: 4 + 4 + 2 per sample.
    CHECK(log ==
          "SFSFSFSFSFSFSFSFSFSF"
          "SSSSFFFFSSSSFFFFSSFF"
          "SSSSFFFFSSSSFFFFSSFF");
    CHECK_FALSE(setup_in_window);
    REQUIRE(seen.size() == 30);
    for (int i = 0; i < 30; ++i) CHECK(seen[static_cast<std::size_t>(i)] == i);
}

TEST_CASE("iter_batched: the plain run builds one input and calls fn on it once") {
    int made = 0, called = 0;
    auto setup = [&] { return ++made * 10; };
    auto fn = [&](int& v) { called += v; };
    Batched<decltype(setup), decltype(fn)> b(setup, fn, 1024);
    run_untimed(b.batch, 1);
    CHECK(made == 1);
    CHECK(called == 10);
}

TEST_CASE("iter_batched: an input of bool is a real element (no std::vector<bool> proxy)") {
    auto setup = [] { return true; };
    int trues = 0;
    auto fn = [&](bool& v) {
        trues += v ? 1 : 0;
        v = false;  // the input is the iteration's own, to modify
    };
    Batched<decltype(setup), decltype(fn)> b(setup, fn, 8);
    run_untimed(b.batch, 20);
    CHECK(trues == 20);
}

TEST_CASE("iter_batched: a setup that spins 20 us per input does not show in the median") {
    std::uint64_t setups = 0;
    auto setup = [&] {
        // A doubling that ignored setup's wall time would run ~2^17 iterations per sample here.
        if (++setups > 200000) throw std::runtime_error("the doubling ran away");
        spin_ns(20000);
        return setups;
    };
    auto fn = [](std::uint64_t& v) { return glint::black_box(v + 1); };
    Batched<decltype(setup), decltype(fn)> b(setup, fn, 1024);
    TimingConfig config;
    config.min_time_ns = 1e5;  // 0.1 ms of timed work per sample...
    config.samples = 16;
    config.wall_budget_ns = 16 * 2e6;  // ...or 2 ms of wall time, setup included
    const TimingSummary t = time_batched(b.batch, config);
    CHECK(t.samples >= 16);  // more when retaken under load (docs/load.md), within the budget
    if (!t.retaken) CHECK(t.samples == 16);
    // The body is a few ns; 20 us of setup per iteration would read as >= 20000 ns.
    CHECK(t.median_ns < 2000);
    // The wall cap ended the doubling: 2 ms of setup is about 100 inputs.
    CHECK(t.iterations_per_sample <= 256);
    CHECK(setups < 200000);
}

// Issue 47: the CPU reads bound each window together with its setup, so time the thread lost
// while its inputs were built (here a sleep: wall time with no CPU time) is the window's, where
// it once fell between reads and left the window clean with cold inputs.
TEST_CASE("iter_batched: time lost while a window's inputs are built counts against the window") {
    if (glint::os::thread_cpu_ns() < 0) return glint::test::skip("no thread CPU clock here");
    auto setup = [] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        return 1;
    };
    auto fn = [](int& v) { return glint::black_box(v + 1); };
    Batched<decltype(setup), decltype(fn)> b(setup, fn, 4);
    const WindowsTime t = time_windows(b.batch, 8, 4, true);  // 2 windows, 4 ms of sleep each
    CHECK(t.wall >= 0);
    CHECK(t.cpu == 0);  // lost (>= 4 ms a window) exceeds the windows' few-ns calls: none kept
    const WindowsTime unread = time_windows(b.batch, 4, 4, false);
    CHECK(std::isnan(unread.cpu));
}

namespace {

// A tier that records the plan and runs the batch as the real passes do.
struct RecordingTier final : CountingTier {
    std::vector<PassPlan>* plans;
    explicit RecordingTier(std::vector<PassPlan>* p) : plans(p) {}
    std::string_view source() const override { return "recording"; }
    bool wanted(const TierRequest&) const override { return true; }
    std::vector<Status> open(const TierRequest&) override {
        return {Status{"recording", Status::State::available, {}, {}}};
    }
    std::vector<glint::catalog::MetricDescriptor> family() const override { return {}; }
    PassResult count(const Workload&, const PassPlan& plan) override {
        plans->push_back(plan);
        return {};
    }
};

}  // namespace

TEST_CASE("iter_batched: windows hold about 20 us of calls, at least 1, at most the cap") {
    auto run = [](void*, std::uint64_t) {};
    auto prepare = [](void*, std::uint64_t) {};
    const glint::detail::Batch b{+run, nullptr, +prepare, 1024};
    CHECK(window_for(b, 8000, 5000) == 2);  // a sort of 8 us: 2 inputs, cache-warm
    CHECK(window_for(b, 100, 5000) == 200);
    CHECK(window_for(b, 1, 5000) == 1024);  // capped
    CHECK(window_for(b, 1, 300) == 300);    // never more than the run
    CHECK(window_for(b, 50000, 5000) == 1);
    CHECK(window_for(b, std::numeric_limits<double>::quiet_NaN(), 5000) == 1);  // not known yet
    // A sample whose windows all read within the clock's bracket (0 ns): the most calls, so
    // the next windows can be timed (windows of 1 would read 0 again, forever).
    CHECK(window_for(b, 0, 5000) == 1024);
    CHECK(window_for(b, 0, 300) == 300);
    const glint::detail::Batch plain{+run, nullptr};
    CHECK(window_for(plain, 1, 5000) == 5000);  // no inputs: one window, the whole run
}

TEST_CASE("iter_batched: a counting pass brackets one window of inputs at a time") {
    std::vector<PassPlan> plans;
    TierSet tiers;
    std::vector<std::unique_ptr<Tier>> all;
    all.push_back(std::make_unique<RecordingTier>(&plans));
    tiers.open(TierRequest{}, std::move(all));
    TimingSummary timing;
    timing.iterations_per_sample = 5000;
    timing.median_ns = 10;  // a 1 ms bracket would be 5000 iterations: all of them
    auto nothing = [](void*, std::uint64_t) {};
    auto prepare = [](void*, std::uint64_t) {};
    Workload with_inputs;
    with_inputs.batch = {+nothing, nullptr, +prepare, 1024};
    Workload without;
    without.batch = {+nothing, nullptr};
    tiers.count("a", "a", with_inputs, timing, {});
    tiers.count("b", "b", without, timing, {});
    REQUIRE(plans.size() == 2);
    CHECK(plans[0].iterations == 5000);
    CHECK(plans[0].batch == 1024);  // 20 us of 10 ns calls is 2000: the cap
    CHECK(plans[1].batch == 5000);
}

TEST_CASE("iter_batched: the API hands the runner a batch with inputs, capped at 1024 by default") {
    glint::test::CapturingSession session;
    session.runs = 3;
    glint::engine::SessionScope scope(session);
    int made = 0, used = 0;
    glint::iter_batched([&] { return ++made; }, [&](int& v) { used += v; });
    CHECK(bool(session.batches.back().prepare));
    CHECK(session.batches.back().max_window == 1024);  // docs/writing-benchmarks.md's default
    CHECK(session.calls.back().pinned.count == 0);
    CHECK(made == 3);
    CHECK(used == 1 + 2 + 3);
    glint::iter_batched([] { return 0; }, [](int&) {}, glint::max_inputs(16),
                        glint::iterations(50));
    CHECK(session.batches.back().max_window == 16);
    CHECK(session.calls.back().pinned.count == 50);
}

TEST_CASE("iter_batched: a deleted fn is refused though its samples' windows are under the cap") {
    // Windows of 512 calls (pinned), as a disturbed doubling can leave them: the samples only
    // suspect the fn; windows of the cap, probed alone, decide. (g++ -O3 deletes the empty fn;
    // the sanitizer tree, whose instrumented code keeps it, leaves this and the next-but-one out.)
    auto setup = [] { return 1; };
    auto fn = [](int&) {};
    Batched<decltype(setup), decltype(fn)> b(setup, fn, 1024);
    TimingConfig config;
    config.pinned = 512;
    config.samples = 8;
    try {
        (void)time_batched(b.batch, config);
        FAIL("a deleted fn was measured");
    } catch (const OptimizedAway& refused) {
        CHECK(std::string(refused.what()).find("a window of 1024 calls took") != std::string::npos);
    }
}

TEST_CASE("iter_batched: a real fn whose short windows read within the bracket is measured") {
    // Windows of 8 calls of ~1 ns can read under half the clock's bracket; the probe's windows
    // of the cap (1024 calls, ~1 us) cannot.
    auto setup = [] { return std::uint64_t{1}; };
    auto fn = [](std::uint64_t& v) {
        for (int i = 0; i < 4; ++i) v = glint::black_box(v + v);
    };
    Batched<decltype(setup), decltype(fn)> b(setup, fn, 1024);
    TimingConfig config;
    config.pinned = 8;
    config.samples = 8;
    const TimingSummary t = time_batched(b.batch, config);
    CHECK(t.iterations_per_sample == 8);
}

TEST_CASE(
    "iter_batched: the probe of a deleted fn holds at most 1024 inputs, however large the cap") {
    auto setup = [] { return 1; };
    auto fn = [](int&) {};
    Batched<decltype(setup), decltype(fn)> b(setup, fn, std::uint64_t{1} << 40);  // would be 4 TiB
    TimingConfig config;
    config.pinned = 512;
    config.samples = 8;
    CHECK_THROWS_WITH_AS((void)time_batched(b.batch, config),
                         doctest::Contains("a window of 1024 calls took"), OptimizedAway);
}
