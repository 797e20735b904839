// The perf tier and the syscall read path for real on this kernel. Only software events are
// asserted (page faults, context switches, task-clock): they exist on every Linux, PMU or not.
// No assertion is about speed; task-clock is checked against the CPU time the body burns
// (below) and the wall time the bracket took (above: task-clock runs on the perf clock, which
// keeps going while the hypervisor steals the vCPU; the thread's CPU clock the body burns does
// not, so on a loaded host task-clock reads several times the burnt CPU time, 6.7x in one CI run).
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "engine/counting/read_path.hpp"
#include "engine/tiers/perf/perf_tier.hpp"
#include "os/perf_events.hpp"
#include "support/test_bodies.hpp"
#include "support/workloads.hpp"

using namespace glint;
using namespace glint::engine;
using glint::os::Event;
using glint::test::batched;
using glint::test::cell;

namespace {

using glint::test::burn_cpu;
using glint::test::touch_fresh_pages;

// Wall nanoseconds `run` takes: the most any per-thread clock can advance meanwhile.
template <class F>
double wall_ns(F&& run) {
    const auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
        .count();
}

std::unique_ptr<CountingTier> opened_tier(const TierRequest& options) {
    auto tier = make_perf_tier();
    auto statuses = tier->open(options);
    REQUIRE_MESSAGE(statuses.front().usable(), statuses.front().reason);
    return tier;
}

TierRequest perf_options(bool inherit = false) {
    TierRequest r;
    r.perf.asked = true;
    r.perf.inherit = inherit;
    return r;
}

// A software group with the syscall path, independent of whether a PMU exists.
struct SoftwareRig {
    os::PerfGroup group;
    std::unique_ptr<counting::ReadPath> path;
    SoftwareRig() {
        os::OpenFailure failure;
        REQUIRE(group.open(os::GroupSpec{{Event::task_clock, Event::page_faults,
                                          Event::context_switches, Event::cpu_migrations}},
                           failure));
        path = counting::make_syscall_path(group);
    }
};

}  // namespace

TEST_CASE("real tier: a body touching K fresh pages reads about K page faults per iteration") {
    auto tier = opened_tier(perf_options());
    constexpr int kPages = 16;
    auto body = [] { touch_fresh_pages(kPages); };
    PassResult r = tier->count(batched(body), PassPlan{40, 8});
    const double faults = cell(r, "page-faults");
    CHECK(faults >= kPages - 0.5);
    CHECK(faults <= kPages + 1.0);
    auto idle = [] {};
    CHECK(cell(tier->count(batched(idle), PassPlan{1000, 100}), "page-faults") < 0.05);
}

TEST_CASE("real tier: the software group opens here when no hardware PMU exists") {
    auto tier = make_perf_tier();
    auto statuses = tier->open(perf_options());
    REQUIRE(statuses.front().usable());
    if (tier->meta().at("group").as_string() != "software") return;  // a host with a PMU
    CHECK(statuses.front().state == Status::State::degraded);
    CHECK(statuses.front().reason.find("software group only") != std::string::npos);
    // task-clock per iteration of a busy body is close to the CPU time it burns.
    auto busy = [] { burn_cpu(200'000); };
    PassResult r;
    const double wall = wall_ns([&] { r = tier->count(batched(busy), PassPlan{10, 5}); });
    const double ns = cell(r, "task-clock");
    CHECK(ns >= 0.9 * 200'000);
    CHECK(ns * 10 <= wall);
}

TEST_CASE("real syscall path: task-clock of a busy body matches the CPU time it burns") {
    SoftwareRig rig;
    REQUIRE(rig.path->begin_pass());
    auto busy = [] { burn_cpu(500'000); };
    using F = decltype(busy);
    counting::GroupDelta d;
    const double wall = wall_ns([&] {
        d = rig.path->bracket({&glint::detail::run_batch<F>, &busy}, 4);
    });
    REQUIRE(d.ok);
    CHECK(d.running == d.enabled);
    CHECK(static_cast<double>(d.counts[0]) >= 0.95 * 2'000'000);
    CHECK(static_cast<double>(d.counts[0]) <= wall);
    CHECK(d.enabled >= d.counts[0]);
}

TEST_CASE("real syscall path: a body that sleeps switches context each time") {
    SoftwareRig rig;
    REQUIRE(rig.path->begin_pass());
    auto sleeper = [] {
        timespec t{0, 200'000};
        ::nanosleep(&t, nullptr);
    };
    using F = decltype(sleeper);
    counting::GroupDelta d = rig.path->bracket({&glint::detail::run_batch<F>, &sleeper}, 10);
    REQUIRE(d.ok);
    CHECK(d.counts[2] >= 10);  // context-switches
    CHECK(d.counts[2] <= 40);
    // Sleeping is off-CPU: task-clock stays far below the 2 ms slept.
    CHECK(d.counts[0] < 1'500'000);
}

TEST_CASE("real syscall path: time fields are taken against the pass baseline") {
    SoftwareRig rig;
    auto busy = [] { burn_cpu(300'000); };
    using F = decltype(busy);
    counting::Body body{&glint::detail::run_batch<F>, &busy};
    REQUIRE(rig.path->begin_pass());
    REQUIRE(rig.path->bracket(body, 3).ok);  // ~0.9 ms of history before the second pass
    REQUIRE(rig.path->begin_pass());
    counting::GroupDelta d = rig.path->bracket(body, 1);
    REQUIRE(d.ok);
    // Only this bracket's time, not the first pass's (RESET left the time fields running).
    CHECK(d.enabled < 700'000);
    CHECK(d.enabled >= 300'000);
}

TEST_CASE("real tier: threads created after the open count only with --perf-inherit") {
    constexpr int kPages = 64;
    auto spawn = [] { std::thread([] { touch_fresh_pages(kPages); }).join(); };
    std::thread([] {}).join();  // warm glibc's thread-stack cache

    auto plain = opened_tier(perf_options(false));
    const double own = cell(plain->count(batched(spawn), PassPlan{4, 1}), "page-faults");
    CHECK(own < kPages / 2.0);
    plain->close();

    auto inherit = opened_tier(perf_options(true));
    const double all = cell(inherit->count(batched(spawn), PassPlan{4, 1}), "page-faults");
    CHECK(all >= kPages);
}
