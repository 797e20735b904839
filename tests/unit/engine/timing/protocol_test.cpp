#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "engine/timing/clock.hpp"
#include "engine/timing/core_probe.hpp"
#include "engine/timing/protocol.hpp"
#include "os/thread_usage.hpp"
#include "support/platform.hpp"
#include "support/skip.hpp"

using namespace glint::engine;

TEST_CASE("protocol: iterations double until one sample reaches the minimum time") {
    std::vector<std::uint64_t> tried;
    auto sample = [&](std::uint64_t n) {
        tried.push_back(n);
        return static_cast<double>(n) * 1000.0;  // 1 µs per iteration
    };
    CHECK(double_until(sample, 100000.0) == 128);  // 128 µs >= 100 µs > 64 µs
    // The sample that reaches the target is confirmed once.
    CHECK(tried == std::vector<std::uint64_t>{1, 2, 4, 8, 16, 32, 64, 128, 128});
    tried.clear();
    CHECK(double_until(sample, 10.0) == 1);  // a single slow iteration is enough
}

TEST_CASE("protocol: one stalled sample does not stop the doubling early") {
    int calls = 0;
    auto stalled_once = [&](std::uint64_t n) {
        ++calls;
        const double t = static_cast<double>(n) * 1000.0;
        return calls == 5 ? t + 1e9 : t;  // the first sample of n = 16 stalls for a second
    };
    CHECK(double_until(stalled_once, 100000.0) == 128);
}

namespace {
int g_calls = 0;
void count_call() { ++g_calls; }
}  // namespace

TEST_CASE("protocol: pinned batched timing runs exactly samples x pinned iterations") {
    g_calls = 0;
    glint::detail::Batch batch{&glint::detail::run_body_batch<&count_call>, nullptr};
    TimingConfig config;
    config.pinned = 10;
    auto t = time_batched(batch, config);
    CHECK(g_calls == 32 * 10);
    CHECK(t.samples == 32);
    CHECK(t.iterations_per_sample == 10);
    CHECK_FALSE(t.per_call);
    CHECK(t.sample_ns.size() == 32);
    CHECK(t.min_ns <= t.median_ns);
    CHECK(t.median_ns <= t.max_ns);
}

namespace {
struct Counting final : glint::detail::PerCall {
    int timed_calls = 0;
    int after_calls = 0;
    void timed() override { ++timed_calls; }
    glint::Outcome after() override {
        ++after_calls;
        return {};
    }
};
struct Spinning final : glint::detail::PerCall {
    int timed_calls = 0;
    void timed() override {
        ++timed_calls;
        const auto start = now_ns();
        while (now_ns() - start < 500) {}
    }
    glint::Outcome after() override { return {}; }
};
}  // namespace

TEST_CASE("protocol: pinned per-call timing runs exactly the pinned calls") {
    Counting c;
    TimingConfig config;
    config.pinned = 7;
    auto t = time_per_call(
        c, [&] { c.after(); }, config);
    CHECK(c.timed_calls == 7);
    CHECK(c.after_calls == 7);
    CHECK(t.samples == 7);
    CHECK(t.per_call);
}

// The budget counts each timed window as run, bracket included (docs/reading-results.md: "until the
// timed windows (bracket included) add up to --bench-min-time"); the samples have the bracket
// (resolution_ns) subtracted. Every Spinning window outlasts the bracket, so no sample is
// clamped at 0 and sample + bracket is the window exactly. The stopping rule is checked on the
// windows this run timed, whatever they were: at least 32, and then the first sample whose
// window brought the total to the budget is the last (the 30 s wall budget never ends it).
TEST_CASE(
    "protocol: per-call timing samples past 32 until the timed windows reach 20x the minimum "
    "time") {
    Spinning d;  // each call spins >= 0.5 µs: 32 calls take 16 µs of the 1 ms unless preempted
    TimingConfig unpinned;
    unpinned.min_time_ns = 1e6 / kPerCallTotalFactor;  // a 1 ms total
    unpinned.wall_budget_ns = 30e9;
    auto u = time_per_call(
        d, [&] { d.after(); }, unpinned);
    REQUIRE(u.samples >= 32);
    CHECK(d.timed_calls == static_cast<int>(u.samples));
    double before_last = 0;
    double total = 0;
    for (std::size_t i = 0; i < u.sample_ns.size(); ++i) {
        REQUIRE(u.sample_ns[i] > 0);  // not clamped: the window is sample + bracket
        const double window = u.sample_ns[i] + u.resolution_ns;
        if (i + 1 < u.sample_ns.size()) before_last += window;
        total += window;
    }
    // 1 ns of slack for the different order of the floating-point sums.
    const double total_ns = kPerCallTotalFactor * unpinned.min_time_ns;
    CHECK(total >= total_ns - 1);  // the windows reached the budget...
    if (u.samples > 32)            // ...and sampling stopped at the first that did
        CHECK(before_last < total_ns + 1);
}

TEST_CASE(
    "protocol: a checkpoint runs between samples, outside the timed windows, and may abandon the "
    "case") {
    g_calls = 0;
    glint::detail::Batch batch{&glint::detail::run_body_batch<&count_call>, nullptr};
    TimingConfig config;
    config.pinned = 3;
    std::vector<int> calls_seen;  // the body's calls so far, at each checkpoint
    config.checkpoint = [&] { calls_seen.push_back(g_calls); };
    time_batched(batch, config);
    REQUIRE(calls_seen.size() == 32);  // before every sample
    for (std::size_t i = 0; i < calls_seen.size(); ++i)
        CHECK(calls_seen[i] == static_cast<int>(3 * i));

    struct Stop {};
    int checks = 0;
    config.pinned = 0;
    config.min_time_ns = 1e12;  // the doubling would run for a long time
    config.checkpoint = [&] {
        if (++checks == 5) throw Stop{};
    };
    CHECK_THROWS_AS(time_batched(batch, config), Stop);  // a checkpoint inside the doubling too
    CHECK(checks == 5);

    Counting c;
    TimingConfig per_call;
    per_call.pinned = 100;
    int per_call_checks = 0;
    per_call.checkpoint = [&] {
        if (++per_call_checks == 10) throw Stop{};
    };
    CHECK_THROWS_AS(time_per_call(
                        c, [&] { c.after(); }, per_call),
                    Stop);
    CHECK(c.timed_calls == 9);
}

namespace {
void nothing(void*, std::uint64_t) {}  // a batch whose body the compiler deleted
}  // namespace

TEST_CASE(
    "protocol: a batch that runs away to 2^40 iterations per sample is refused as optimized away") {
    const glint::detail::Batch batch{&nothing, nullptr};
    TimingConfig config;
    config.min_time_ns = 1e5;
    try {
        time_batched(batch, config);
        FAIL("a deleted body was reported as a measurement");
    } catch (const OptimizedAway& refused) {
        CHECK(std::string(refused.what()).find("optimized away") == 0);
        CHECK(std::string(refused.what()).find("glint::black_box") != std::string::npos);
    }
    config.refuse_optimized_away = false;  // glint::measure's choice: the numbers, as they are
    CHECK(time_batched(batch, config).iterations_per_sample == std::uint64_t{1} << 40);
    // A real body of about a nanosecond, one iteration per sample, is measured.
    config.refuse_optimized_away = true;
    config.pinned = 1;
    g_calls = 0;
    const glint::detail::Batch real{&glint::detail::run_body_batch<&count_call>, nullptr};
    CHECK_NOTHROW(time_batched(real, config));
}

TEST_CASE(
    "protocol: a batched case's CPU/wall ratio stays at or below 1 however short its samples") {
    // One iteration per sample: each timed part is a few ns, far shorter than the thread-CPU
    // read between samples (a system call). A wall time that left the reads out read 24.7.
    g_calls = 0;
    const glint::detail::Batch batch{&glint::detail::run_body_batch<&count_call>, nullptr};
    TimingConfig config;
    config.pinned = 1;
    const TimingSummary t = time_batched(batch, config);
    if (glint::os::thread_cpu_ns() < 0) return glint::test::skip("this OS has no thread CPU clock");
    // Read when the CPU clock's step is fine against the run (Linux), unread when it is not
    // (Windows' scheduler tick): never a ratio over 1, nor one made of a step.
    auto check_ratio = [](const TimingSummary& run) {
        const double step = clock_properties().thread_cpu_step_ns;
        INFO("wall " << run.wall_ns << " ns, CPU " << run.cpu_ns << " ns, CPU step " << step);
        CHECK(run.wall_ns > 0);
        if (step * 20 <= run.wall_ns) CHECK(run.cpu_wall_ratio() <= 1.0);
        else CHECK(std::isnan(run.cpu_ns));
    };
    check_ratio(t);
    // Per call, one call: the loop is shorter than the CPU reads around it.
    Counting c;
    TimingConfig one;
    one.pinned = 1;
    check_ratio(time_per_call(
        c, [] {}, one));
}

TEST_CASE("protocol: a run's CPU time is unread where the CPU clock's step is coarse against it") {
    constexpr double kWindowsTick = 15.6e6;
    CHECK(std::isnan(run_cpu_ns(0, 0, 1e6, kWindowsTick)));           // read as 0: no CPU at all
    CHECK(std::isnan(run_cpu_ns(0, 15'600'000, 1e6, kWindowsTick)));  // read as 15.6x the wall
    CHECK(run_cpu_ns(0, 312'000'000, 312e6, kWindowsTick) == 312e6);  // 20 ticks: read
    CHECK(run_cpu_ns(100, 900'100, 1e6, 50) == 900000);               // a fine clock, 1 ms
    CHECK(run_cpu_ns(100, 900'100, 1e6, NAN) == 900000);  // step unknown: the reads stand
    CHECK(std::isnan(run_cpu_ns(-1, 900'100, 1e6, 50)));  // a read failed
}

TEST_CASE("protocol: the printed ± is never finer than the clock's step per iteration") {
    // An empty call: every sample reads the same few ticks, so the MAD is 0; the ± is not.
    Counting c;
    TimingConfig config;
    config.pinned = 64;
    const TimingSummary p = time_per_call(
        c, [] {}, config);
    const ClockProperties& clock = clock_properties();
    CHECK(p.spread_ns >= (clock.ticks_usable ? clock.ns_per_tick : clock.resolution_ns));
    g_calls = 0;
    const glint::detail::Batch batch{&glint::detail::run_body_batch<&count_call>, nullptr};
    TimingConfig batched;
    batched.pinned = 4;
    const TimingSummary t = time_batched(batch, batched);
    CHECK(t.spread_ns >= clock.resolution_ns / 4);
}

namespace {

// Spins until this thread's CPU clock has advanced `ns`: work whose CPU time is known.
void spin_cpu_ns(std::int64_t ns) {
    const std::int64_t start = glint::os::thread_cpu_ns();
    std::uint64_t x = 0;
    while (glint::os::thread_cpu_ns() - start < ns) x = glint::black_box(x + 1);
}

// A body that only sleeps: its samples lose nearly all their wall time.
// A millisecond, not less: mingw-w64's sleep_for rounds down to Sleep's whole milliseconds, so a
// 200 us sleep returns at once on Windows.
void sleep_1ms(void*, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

std::int64_t g_slow_windows = 0;  // windows of the probe's size run slowly (then none)
void armed_run(void*, std::uint64_t k) {
    if (k == 1024 && g_slow_windows > 0) {  // only the optimized-away probe's windows are 1024
        --g_slow_windows;
        const std::int64_t start = now_ns();
        while (now_ns() - start < 20'000) {}
    }
}
void no_inputs(void*, std::uint64_t) {}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

// The core-speed probes run between a sample's CPU reads (protocol.cpp): their time is taken
// off the sample's CPU span, or a sample that lost the CPU would read as having kept it. A probe
// of 5 ms of CPU time beside samples that sleep 1 ms: each sample's CPU time stays the sleep's
// few microseconds, far under its wall time, however loaded the machine.
TEST_CASE("protocol: the core-speed probes' time is not in a sample's CPU time") {
    if (glint::os::thread_cpu_ns() < 0) return glint::test::skip("this OS has no thread CPU clock");
    if (glint::test::kBuildOs == "windows")
        return glint::test::skip(
            "Windows' thread CPU time advances by the scheduler tick (10 to 15.6 ms): a 1 ms "
            "sample's CPU time cannot be read");
    const glint::detail::Batch batch{&sleep_1ms, nullptr};
    TimingConfig config;
    config.pinned = 1;
    config.samples = 8;
    config.refuse_optimized_away = false;
    int probes = 0;
    config.probe = [&probes] {
        ++probes;
        const std::int64_t start = now_ns();
        spin_cpu_ns(5'000'000);
        return static_cast<double>(now_ns() - start) / static_cast<double>(kProbeSteps);
    };
    const TimingSummary t = time_batched(batch, config);
    CHECK(probes == 9);  // one before each sample, one after the last
    REQUIRE(t.sample_cpu_ns.size() == 8);
    const double wall = median_of(t.sample_ns), cpu = median_of(t.sample_cpu_ns);
    INFO("median sample: wall " << wall << " ns, CPU " << cpu << " ns");
    CHECK(wall >= 2e5);
    CHECK(cpu < wall / 4);  // a probe's 5 ms left in would read CPU == wall (or >= 5 ms)
}

// iter_batched's optimized-away verdict (protocol.hpp): the quickest of up to 16 windows of the
// cap, so one window slowed by the machine cannot acquit a deleted fn. Here the probe's first
// window is slowed on purpose (20 us, far above the clock's bracket) and the rest are empty.
TEST_CASE("protocol: the optimized-away probe looks past a slowed first window") {
    const glint::detail::Batch batch{&armed_run, nullptr, &no_inputs, 1024};
    TimingConfig config;
    config.pinned = 512;  // the samples' windows: 512 calls, under the cap
    config.samples = 8;
    g_slow_windows = 1;
    CHECK_THROWS_WITH_AS((void)time_batched(batch, config),
                         doctest::Contains("a window of 1024 calls took"), OptimizedAway);
    CHECK(g_slow_windows == 0);  // the probe ran the slowed window
}

TEST_CASE("protocol: a pass records its core's speed, per call from probes between the calls") {
    int probes = 0;
    auto probe = [&probes] { return ++probes % 4 == 0 ? 0.27 : 0.42; };  // mostly slowed
    Spinning spinning;                                                   // 500 ns a call
    TimingConfig per_call;
    per_call.pinned = 400;
    per_call.probe = probe;
    const TimingSummary p = time_per_call(
        spinning, [] {}, per_call);
    INFO("probes between 400 calls of 500 ns: " << probes);
    // One before the first call, then one per kPerCallProbeNs (50 us) timed: 200 us of calls
    // (more where a call lost the CPU, each such call one probe at most).
    CHECK(probes >= 2);
    CHECK(probes <= 40);
    CHECK(p.core_step_ns == 0.42);
    probes = 0;
    per_call.core_probe = false;
    CHECK(std::isnan(time_per_call(
                         spinning, [] {}, per_call)
                         .core_step_ns));
    CHECK(probes == 0);
    g_calls = 0;
    const glint::detail::Batch batch{&glint::detail::run_body_batch<&count_call>, nullptr};
    TimingConfig batched;
    batched.pinned = 64;
    batched.probe = probe;
    CHECK(time_batched(batch, batched).core_step_ns == 0.42);
}
