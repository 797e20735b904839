// The bracketing study's arithmetic on the fake kernel (exact), and once for real.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/counting/bracket_study.hpp"
#include "engine/counting/group_opener.hpp"
#include "support/fake_perf_kernel.hpp"

using namespace glint::engine::counting;
using glint::test::FakePerfKernel;

namespace {
struct TenUnits {
    FakePerfKernel* fake;
    void operator()() const { fake->work(10); }
};
struct Nothing {
    void operator()() const {}
};

// The software group (task-clock leads: member 0) and its syscall path, studied.
template <class Body>
BracketingStudy study_software(Body& body, std::uint64_t iterations, std::uint64_t batch,
                               std::size_t anchor = 0) {
    glint::os::PerfGroup group;
    glint::os::OpenFailure failure;
    REQUIRE(group.open(glint::os::GroupSpec{software_events()}, failure));
    auto path = make_syscall_path(group);
    return study_path(*path, group.spec().events, anchor, {&glint::detail::run_batch<Body>, &body},
                      iterations, batch);
}
}  // namespace

TEST_CASE("bracket study: every-iteration brackets carry the apparatus, batches amortize it") {
    FakePerfKernel fake;  // each window adds 100 to every count: the bracket's own cost
    TenUnits body{&fake};
    const int enables = fake.enable_calls;
    const BracketingStudy s = study_software(body, 1000, 250);
    REQUIRE_MESSAGE(s.ok, s.failure);
    // 31 calibration + 1000 (batch 1) with 125 interleaved empties + 4 (batch 250) with 31
    // interleaved empties.
    CHECK(fake.enable_calls - enables == 31 + 1000 + 125 + 4 + 31);
    CHECK(s.anchor_per_bracket == 100);
    CHECK(s.batch1_raw == doctest::Approx(110.0));  // (100 + 10) per iteration
    CHECK(s.batched_raw == doctest::Approx(10.4));  // (4*100 + 10000) / 1000
    CHECK(s.inflation() == doctest::Approx(110.0 / 10.4));
    CHECK(s.batch1 == doctest::Approx(10.0));
    CHECK(s.batched == doctest::Approx(10.0));
    CHECK(s.cost.wall_ns > 0);
    CHECK(std::isnan(s.cost.window_ns));  // the syscall path has no window apart from its calls
    CHECK(fake.live_fds() == 0);
}

TEST_CASE("bracket study: clamps the batch, an anchor outside the group is refused") {
    FakePerfKernel fake;
    TenUnits body{&fake};
    const BracketingStudy clamped = study_software(body, 10, 50);
    REQUIRE(clamped.ok);
    CHECK(clamped.batch == 10);
    const BracketingStudy refused = study_software(body, 10, 5, 99);
    CHECK_FALSE(refused.ok);
    CHECK(std::isnan(refused.batch1_raw));  // not measured: nan, never 0
    CHECK(refused.failure.find("anchor") != std::string::npos);
}

TEST_CASE("bracket study: unreadable empty brackets are a failure, figures stay nan") {
    FakePerfKernel fake;
    Nothing nothing;
    glint::os::PerfGroup group;
    glint::os::OpenFailure failure;
    REQUIRE(group.open(glint::os::GroupSpec{software_events()}, failure));
    auto path = make_syscall_path(group);
    fake.enable_errno = EIO;  // every bracket fails: nothing measured
    const BracketingStudy s = study_path(*path, group.spec().events, 0,
                                         {&glint::detail::run_batch<Nothing>, &nothing}, 10, 5);
    CHECK_FALSE(s.ok);
    CHECK(s.failure == "the empty brackets could not be read");
    CHECK(std::isnan(s.anchor_per_bracket));
    CHECK(std::isnan(s.batched));
}

TEST_CASE("real bracket study: batching reads less task-clock per iteration than bracketing each") {
    Nothing nothing;
    const BracketingStudy s = study_software(nothing, 2000, 2000);
    REQUIRE_MESSAGE(s.ok, s.failure);
    CHECK(std::isfinite(s.batch1_raw));
    CHECK(std::isfinite(s.batched_raw));
    // Not a speed assertion: a bracket's enabled window is never empty, so 2000 of them hold at
    // least as much task-clock as one.
    CHECK(s.batch1_raw >= s.batched_raw);
}
