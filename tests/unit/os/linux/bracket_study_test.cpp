// The bracketing study's arithmetic on the fake kernel (exact), and once for real.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/tiers/perf/bracket_study.hpp"
#include "fake_perf_kernel.hpp"

using namespace glint::engine::perf;
using glint::test::FakePerfKernel;

namespace {
struct TenUnits {
    FakePerfKernel* fake;
    void operator()() const { fake->work(10); }
};
struct Nothing {
    void operator()() const {}
};
}  // namespace

TEST_CASE("bracket study: every-iteration brackets carry the apparatus, batches amortize it") {
    FakePerfKernel fake;  // each window adds 100 to every count: the bracket's own cost
    TenUnits body{&fake};
    const int enables = fake.enable_calls;
    BracketingStudy s = study_bracketing({&glint::detail::run_batch<TenUnits>, &body}, 1000, 250,
                                         /*wall_brackets=*/20);
    REQUIRE(s.ok);
    // 31 calibration + 20 timed + 1000 (batch 1) with 125 interleaved empties + 4 (batch 250)
    // with 31 interleaved empties.
    CHECK(fake.enable_calls - enables == 31 + 20 + 1000 + 125 + 4 + 31);
    CHECK(s.bracket_task_clock_ns == 100);
    CHECK(s.task_clock_batch1 == doctest::Approx(110.0));    // (100 + 10) per iteration
    CHECK(s.task_clock_batched == doctest::Approx(10.4));    // (4*100 + 10000) / 1000
    CHECK(s.inflation() == doctest::Approx(110.0 / 10.4));
    CHECK(s.task_clock_batch1_corrected == doctest::Approx(10.0));
    CHECK(s.task_clock_batched_corrected == doctest::Approx(10.0));
    CHECK(s.bracket_wall_ns > 0);
    CHECK(fake.live_fds() == 0);
}

TEST_CASE("bracket study: clamps the batch and reports an open failure") {
    {
        FakePerfKernel fake;
        TenUnits body{&fake};
        BracketingStudy s = study_bracketing({&glint::detail::run_batch<TenUnits>, &body}, 10, 50, 0);
        REQUIRE(s.ok);
        CHECK(s.batch == 10);
    }
    FakePerfKernel fake;
    fake.refuse_all_errno = EACCES;
    Nothing nothing;
    BracketingStudy s = study_bracketing({&glint::detail::run_batch<Nothing>, &nothing}, 10, 5, 0);
    CHECK_FALSE(s.ok);
    CHECK(s.failure.find("EACCES") != std::string::npos);
}

TEST_CASE("real bracket study: batching reads less task-clock per iteration than bracketing each") {
    Nothing nothing;
    BracketingStudy s =
        study_bracketing({&glint::detail::run_batch<Nothing>, &nothing}, 2000, 2000, 100);
    REQUIRE_MESSAGE(s.ok, s.failure);
    CHECK(std::isfinite(s.task_clock_batch1));
    CHECK(std::isfinite(s.task_clock_batched));
    // Not a speed assertion: a bracket's enabled window is never empty, so 2000 of them hold at
    // least as much task-clock as one.
    CHECK(s.task_clock_batch1 >= s.task_clock_batched);
}
