// The sampling pass (engine/profile/sampled_pass.hpp) on the real kernel's cpu-clock timer:
// batched chunks until the sample target, per-call cases with after() outside the sampled
// window, the time bound, and exceptions leaving the sampler disabled. The sampled functions are
// noipa: a clone (constprop) would start elsewhere than their address.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "engine/profile/sampled_pass.hpp"
#include "engine/profile/stacks.hpp"
#include "os/symbols.hpp"

using namespace glint::engine;
using namespace glint::engine::profile;

namespace glint_pass_test {

[[gnu::noipa]] std::uint64_t spin(std::uint64_t steps) {
    std::uint64_t x = 1;
    for (std::uint64_t i = 0; i < steps; ++i) {
        x = x * 6364136223846793005ull + 1;
        asm volatile("" : "+r"(x));
    }
    return x;
}

[[gnu::noipa]] std::uint64_t spin_in_after(std::uint64_t steps) {
    std::uint64_t x = 3;
    for (std::uint64_t i = 0; i < steps; ++i) {
        x = x * 2862933555777941757ull + 7;
        asm volatile("" : "+r"(x));
    }
    return x;
}

void run_spin(void*, std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) spin(20000);
}

struct Call final : glint::detail::PerCall {
    bool throw_in_timed = false;
    bool fail_in_after = false;
    void timed() override {
        if (throw_in_timed) throw std::runtime_error("timed threw");
        spin(100000);
    }
    glint::Outcome after() override {
        spin_in_after(300000);  // three times timed(): would dominate if it were sampled
        if (fail_in_after) return glint::fail("after failed");
        return {};
    }
};

// An iter_batched-shaped batch: prepare(n) builds n inputs (spinning, as a costly setup does),
// run(n) consumes n of them; a run with fewer inputs ready than it asks for is recorded.
struct Inputs {
    std::uint64_t ready = 0;
    std::uint64_t unprepared_runs = 0;
    std::uint64_t largest_run = 0;
};

void prepare_inputs(void* ctx, std::uint64_t n) {
    auto& in = *static_cast<Inputs*>(ctx);
    for (std::uint64_t i = 0; i < n; ++i) spin_in_after(20000);
    in.ready = n;
}

void run_inputs(void* ctx, std::uint64_t n) {
    auto& in = *static_cast<Inputs*>(ctx);
    if (n > in.ready) ++in.unprepared_runs;
    in.ready -= std::min(n, in.ready);
    in.largest_run = std::max(in.largest_run, n);
    for (std::uint64_t i = 0; i < n; ++i) spin(5000);
}

}  // namespace glint_pass_test

using namespace glint_pass_test;

namespace {

glint::os::SamplerSpec timer() {
    glint::os::SamplerSpec spec;
    spec.event = glint::os::SampleEvent::cpu_clock;
    spec.period = 100000;
    spec.exclude_kernel = true;
    return spec;
}

// The sampler's count must not move while the pass is over: it was left disabled.
void check_disabled(glint::os::Sampler& s) {
    glint::os::SamplerTimes before, after;
    REQUIRE(s.times(before));
    spin(2000000);
    REQUIRE(s.times(after));
    CHECK(after.count == before.count);
}

}  // namespace

TEST_CASE("sampled pass: a batched case runs in chunks until the sample target") {
    glint::os::Sampler s;
    REQUIRE(s.open(timer()) == 0);
    Workload work;
    work.batch = {&run_spin, nullptr};
    std::uint64_t seen = 0;
    const PassOutcome out = run_sampled(work, s, PassLimits{300, 10e9},
                                        [&](const glint::os::SampleRecord&) { ++seen; });
    CHECK(seen == s.counts().samples);
    CHECK(seen >= 300);
    CHECK(seen < 600);  // it stops soon after: chunks of ~2-4 ms are ~40 samples
    CHECK_FALSE(out.time_bound);
    CHECK(out.iterations > 0);
    CHECK(out.times_ok);
    CHECK(out.wall_ns >= out.times.running_ns);
    check_disabled(s);
}

TEST_CASE("sampled pass: per-call cases sample timed() and never after()") {
    glint::os::Sampler s;
    REQUIRE(s.open(timer()) == 0);
    Call call;
    Workload work;
    work.per_call = &call;
    glint::os::Symbolizer symbols;
    const auto after_start = reinterpret_cast<std::uint64_t>(&spin_in_after);
    const auto timed_start = reinterpret_cast<std::uint64_t>(&spin);
    std::uint64_t in_after = 0, in_timed = 0;
    const PassOutcome out = run_sampled(work, s, PassLimits{200, 10e9}, [&](const auto& r) {
        const auto start = symbols.lookup(r.ip).function_start;
        in_after += start == after_start;
        in_timed += start == timed_start;
    });
    CHECK(s.counts().samples >= 200);
    CHECK(in_after == 0);
    CHECK(in_timed >= s.counts().samples * 9 / 10);
    CHECK(out.iterations > 0);
    check_disabled(s);
}

TEST_CASE("sampled pass: the time bound ends a pass short of its target, and says so") {
    glint::os::Sampler s;
    REQUIRE(s.open(timer()) == 0);
    Workload work;
    work.batch = {&run_spin, nullptr};
    const auto start = std::chrono::steady_clock::now();
    const PassOutcome out = run_sampled(work, s, PassLimits{1000000, 30e6}, nullptr);
    CHECK(out.time_bound);
    CHECK(s.counts().samples < 1000000);
    CHECK(out.wall_ns >= 30000000);
    CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(30));
}

TEST_CASE("sampled pass: exceptions from the case propagate with the sampler disabled") {
    glint::os::Sampler s;
    REQUIRE(s.open(timer()) == 0);
    Call call;
    Workload work;
    work.per_call = &call;
    call.throw_in_timed = true;
    CHECK_THROWS_WITH(run_sampled(work, s, PassLimits{}, nullptr), "timed threw");
    check_disabled(s);
    call.throw_in_timed = false;
    call.fail_in_after = true;
    CHECK_THROWS_AS(run_sampled(work, s, PassLimits{}, nullptr), CaseFailure);
    check_disabled(s);
}

TEST_CASE("sampled pass: a batch with inputs runs in prepared windows and never samples setup") {
    glint::os::Sampler s;
    REQUIRE(s.open(timer()) == 0);
    Inputs inputs;
    Workload work;
    work.batch = {&run_inputs, &inputs, &prepare_inputs, 1024};
    glint::os::Symbolizer symbols;
    const auto setup_start = reinterpret_cast<std::uint64_t>(&spin_in_after);
    const auto fn_start = reinterpret_cast<std::uint64_t>(&spin);
    std::uint64_t in_setup = 0, in_fn = 0;
    const PassOutcome out = run_sampled(
        work, s, PassLimits{200, 10e9},
        [&](const auto& r) {
            const auto start = symbols.lookup(r.ip).function_start;
            in_setup += start == setup_start;
            in_fn += start == fn_start;
        },
        4);
    CHECK(inputs.unprepared_runs == 0);
    CHECK(inputs.largest_run == 4);
    CHECK(out.iterations > 0);
    CHECK(s.counts().samples >= 200);
    CHECK(in_setup == 0);  // setup spins 4 times longer per input than fn
    CHECK(in_fn >= s.counts().samples * 9 / 10);
    check_disabled(s);
}

TEST_CASE("sampled pass: grouped calls when after() costs less than a toggle pair") {
    CHECK(choose_call_sampling(20, 1500) == CallSampling::grouped);
    CHECK(choose_call_sampling(1500, 1500) == CallSampling::each_call);
    CHECK(choose_call_sampling(300000, 1500) == CallSampling::each_call);
}

namespace glint_pass_test {
[[gnu::noipa]] std::uint64_t tiny(std::uint64_t x) {
    for (int i = 0; i < 16; ++i) {
        x = x * 6364136223846793005ull + 1;
        asm volatile("" : "+r"(x));
    }
    return x;
}
struct ShortCall final : glint::detail::PerCall {
    std::uint64_t timed_calls = 0, after_calls = 0;
    void timed() override { ++timed_calls, tiny(timed_calls); }
    glint::Outcome after() override {
        ++after_calls;
        return {};
    }
};
}  // namespace glint_pass_test

TEST_CASE(
    "sampled pass: a per-call case far shorter than a toggle pair is sampled with its calls "
    "grouped") {
    glint::os::Sampler s;
    REQUIRE(s.open(timer()) == 0);
    ShortCall call;
    Workload work;
    work.per_call = &call;
    glint::os::Symbolizer symbols;
    StackBuilder stacks(symbols, pass_code());
    Profile p;
    const PassOutcome out =
        run_sampled(work, s, PassLimits{1000, 20e9}, [&](const auto& r) { stacks.add(r, p); });
    CHECK(out.call_sampling == CallSampling::grouped);
    CHECK(out.toggle_ns > out.after_ns);
    CHECK(call.timed_calls == out.iterations);
    CHECK(call.after_calls == out.iterations);  // each timed() still followed by its after()
    std::uint64_t in_tiny = 0;
    for (const auto& f : p.functions()) {
        CAPTURE(f.name.function);
        CHECK(f.name.function.find("Sampler") == std::string::npos);
        CHECK(f.name.function.find("ioctl") == std::string::npos);
        CHECK(f.name.function.find("glint::engine::") == std::string::npos);
        if (f.name.function.find("glint_pass_test::tiny") != std::string::npos) in_tiny = f.self;
    }
    CHECK(in_tiny >= p.samples() / 2);
    CHECK(p.samples() >= 100);
    check_disabled(s);
}
