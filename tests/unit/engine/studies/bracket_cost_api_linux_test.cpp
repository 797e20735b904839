// glint::BracketCost (<glint/bracket_cost.hpp>, engine/studies/) on the fake perf kernel:
// exact figures through the public facade, the calls its rows time (system call by system
// call), and a host where the group cannot open. Linux-only (the fake kernel is Linux's); the
// real-host test is bracket_cost_test.cpp, beside it.
#include <doctest/doctest.h>

#include <glint/bracket_cost.hpp>

#include <cerrno>
#include <cmath>
#include <string>

#include "support/fake_perf_kernel.hpp"

using glint::BracketCost;
using glint::PathStudy;
using glint::test::FakePerfKernel;
using Path = BracketCost::Path;

namespace {

struct TenUnits {
    FakePerfKernel* fake;
    void operator()() const { fake->work(10); }
};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

bool all_figures_nan(const PathStudy& s) {
    return std::isnan(s.ns_per_bracket) && std::isnan(s.window_ns) &&
           std::isnan(s.cycles_per_bracket) && std::isnan(s.anchor_per_bracket) &&
           std::isnan(s.batch1_raw) && std::isnan(s.batch1) && std::isnan(s.batched_raw) &&
           std::isnan(s.batched) && std::isnan(s.inflation());
}

}  // namespace

TEST_CASE("bracket cost API: the software group's study, exact, anchored on task-clock") {
    FakePerfKernel fake;           // each window adds 100 to every count: the bracket's own cost
    fake.hardware_errno = ENOENT;  // no PMU: the software group
    BracketCost cost;
    REQUIRE_MESSAGE(cost.ok(), cost.failure());
    CHECK(cost.failure().empty());
    CHECK(cost.anchor() == "tc ns");
    CHECK_FALSE(cost.user_path_available());
    CHECK_FALSE(cost.user_path_absent().empty());

    TenUnits body{&fake};
    const PathStudy s = cost.study(Path::syscall, body, 1000, 250);
    REQUIRE_MESSAGE(s.ok, s.failure);
    CHECK(s.iterations == 1000);
    CHECK(s.batch == 250);
    CHECK_FALSE(s.clock.empty());
    CHECK(s.ns_per_bracket > 0);
    CHECK(std::isnan(s.window_ns));           // the syscall path has no window of its own
    CHECK(std::isnan(s.cycles_per_bracket));  // no cycles member in the software group
    CHECK(s.anchor_per_bracket == 100);
    CHECK(s.batch1_raw == doctest::Approx(110.0));  // (100 + 10) per iteration
    CHECK(s.batched_raw == doctest::Approx(10.4));  // (4*100 + 10000) / 1000
    CHECK(s.batch1 == doctest::Approx(10.0));
    CHECK(s.batched == doctest::Approx(10.0));
    CHECK(s.inflation() == doctest::Approx(110.0 / 10.4));

    // The user path is absent: its study is not measured and says why.
    const PathStudy user = cost.study(Path::user, body, 1000, 250);
    CHECK_FALSE(user.ok);
    CHECK(contains(user.failure, cost.user_path_absent()));
    CHECK(all_figures_nan(user));
}

TEST_CASE("bracket cost API: the hardware group is anchored on instructions and counts cycles") {
    FakePerfKernel fake;
    BracketCost cost;
    REQUIRE_MESSAGE(cost.ok(), cost.failure());
    CHECK(cost.anchor() == "instr");
    TenUnits body{&fake};
    const PathStudy s = cost.study(Path::syscall, body, 100, 100);
    REQUIRE_MESSAGE(s.ok, s.failure);
    CHECK(s.cycles_per_bracket == 100);
    CHECK(s.anchor_per_bracket == 100);
    CHECK(s.batched == doctest::Approx(10.0));
}

TEST_CASE("bracket cost API: each timed call makes exactly the system calls its row names") {
    FakePerfKernel fake;
    fake.hardware_errno = ENOENT;
    BracketCost cost;
    REQUIRE_MESSAGE(cost.ok(), cost.failure());
    const int enables = fake.enable_calls, disables = fake.disable_calls, reads = fake.read_calls,
              resets = fake.reset_calls;
    auto moved = [&](int e, int d, int r, int z) {
        const bool same = fake.enable_calls - enables == e && fake.disable_calls - disables == d &&
                          fake.read_calls - reads == r && fake.reset_calls - resets == z;
        return same;
    };

    REQUIRE(cost.begin_pass(Path::syscall));  // stop, reset, baseline read
    CHECK(moved(0, 1, 1, 1));
    CHECK(cost.bracket(Path::syscall));  // ENABLE, DISABLE, one read(2)
    CHECK(moved(1, 2, 2, 1));
    cost.end_pass(Path::syscall);
    CHECK(moved(1, 2, 2, 1));
    CHECK(cost.ioctl_pair());  // ENABLE + DISABLE alone
    CHECK(moved(2, 3, 2, 1));
    CHECK(cost.group_read() > 0);  // one read(2) alone: the group's enabled ns
    CHECK(moved(2, 3, 3, 1));

    // The absent user path: nothing to start or bracket, and no system call made.
    CHECK_FALSE(cost.begin_pass(Path::user));
    CHECK_FALSE(cost.bracket(Path::user));
    cost.end_pass(Path::user);
    CHECK(moved(2, 3, 3, 1));

    fake.enable_errno = EIO;  // a failed ENABLE is a failed bracket and a failed pair
    CHECK_FALSE(cost.bracket(Path::syscall));
    CHECK_FALSE(cost.ioctl_pair());
}

TEST_CASE("bracket cost API: a group that cannot open is a reason, never a number") {
    FakePerfKernel fake;
    fake.refuse_all_errno = EACCES;
    BracketCost cost;
    CHECK_FALSE(cost.ok());
    CHECK(contains(cost.failure(), "EACCES"));
    CHECK(cost.anchor().empty());
    CHECK_FALSE(cost.user_path_name().empty());
    CHECK_FALSE(cost.user_path_available());
    CHECK(contains(cost.user_path_absent(), cost.failure()));

    TenUnits body{&fake};
    for (Path path : {Path::syscall, Path::user}) {
        const PathStudy s = cost.study(path, body, 100, 10);
        CHECK_FALSE(s.ok);
        CHECK(contains(s.failure, cost.failure()));
        CHECK(all_figures_nan(s));
        CHECK_FALSE(cost.begin_pass(path));
        CHECK_FALSE(cost.bracket(path));
    }
    CHECK_FALSE(cost.ioctl_pair());
    CHECK(cost.group_read() == 0);
    CHECK(fake.live_fds() == 0);
}
