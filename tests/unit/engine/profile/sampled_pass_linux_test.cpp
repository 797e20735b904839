// The sampling pass (engine/profile/sampled_pass.hpp) on the real kernel's cpu-clock timer:
// batched chunks until the sample target, per-call cases with after() outside the sampled
// window, the time bound, and exceptions leaving the sampler disabled. The sampled functions are
// noipa: a clone (constprop) would start elsewhere than their address.
#include <doctest/doctest.h>

#include <chrono>
#include <stdexcept>

#include "engine/profile/sampled_pass.hpp"
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
    const PassOutcome out =
        run_sampled(work, s, PassLimits{300, 10e9}, [&](const glint::os::SampleRecord&) { ++seen; });
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
