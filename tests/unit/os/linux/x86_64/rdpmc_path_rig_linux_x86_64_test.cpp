// The rdpmc read path itself on the emulated PMU: the slow path when the kernel moves an event or
// revokes user rdpmc inside a window, re-emitting the stub when an index moved between passes,
// an asynchronous "kernel" reprogramming counters under the brackets, and brackets with no
// system call at all (no software member, times from the leader's page).
#include <functional>

#include "engine/counting/pass_runner.hpp"
#include "os/linux/x86_64/rdpmc_path.hpp"
#include "support/rdpmc_rig.hpp"

using namespace glint;
using namespace glint::engine;
using namespace glint::test;
namespace counting = glint::engine::counting;
using glint::os::linux_::x86_64::RdpmcPath;
using os::Event;

namespace {

// A group opened on the rig (emulated ids 0.. in `events` order) with the rdpmc path over it.
struct OpenGroup {
    os::PerfGroup group;
    std::unique_ptr<counting::ReadPath> path;
    RdpmcPath* rdpmc = nullptr;

    explicit OpenGroup(std::vector<Event> events) {
        os::OpenFailure failure;
        REQUIRE(group.open(os::GroupSpec{std::move(events)}, failure));
        counting::UserReadOffer offer = glint::os::offer_user_read_path(group, true);
        REQUIRE_MESSAGE(offer.path != nullptr, offer.reason);
        path = std::move(offer.path);
        rdpmc = dynamic_cast<RdpmcPath*>(path.get());
        REQUIRE(rdpmc != nullptr);
    }
};

// Simulated work that runs `action` once, inside the window of its `at`-th bracket.
struct ActingWork {
    FakePerfKernel* kernel = nullptr;
    int at = 0;
    std::function<void()> action;
    int calls = 0;
    static void run(void* ctx, std::uint64_t n) {
        auto* self = static_cast<ActingWork*>(ctx);
        self->kernel->work(n);
        if (++self->calls == self->at && self->action) self->action();
    }
};

// Per-iteration values of one pass of `iterations` in brackets of `batch`.
counting::PerIteration pass_values(counting::ReadPath& path, ActingWork& work,
                                   std::uint64_t iterations, std::uint64_t batch) {
    Workload w;
    w.batch = {&ActingWork::run, &work};
    const counting::PassOutcome pass = counting::run_pass(path, w, PassPlan{iterations, batch});
    REQUIRE(pass.totals.ok);
    return counting::per_iteration(pass.totals, iterations, pass.cost);
}

// The rig without read costs: every bracket has the same (zero) apparatus even when some reads
// take the slow path, so counts are exact whatever path served them.
struct QuietRig : TierRig {
    QuietRig() {
        pmu.set_read_cost(kCycles, 0);
        pmu.set_read_cost(kInstructions, 0);
    }
};

}  // namespace

TEST_CASE("rdpmc path: user rdpmc revoked inside a window: read(2) serves the read, exactly") {
    QuietRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    // A software member between two hardware ones: stub slots 0 and 1 are members 0 and 2.
    OpenGroup g({Event::cycles, Event::page_faults, Event::instructions});
    constexpr int kInstructionsHere = 2;  // emulated ids follow the open order
    ActingWork work{&rig.kernel, 5, [&] { rig.pmu.set_user_rdpmc(kInstructionsHere, false); }};
    const counting::PerIteration v = pass_values(*g.path, work, 40, 1);
    CHECK(v.values[0] == 20.0);
    CHECK(v.values[1] == 1.0);
    CHECK(v.values[2] == 10.0);
    CHECK(g.rdpmc->stats().read2_fallbacks > 0);
    CHECK(g.rdpmc->stats().failed_reads == 0);
    CHECK(rig.pmu.bad_reads() == 0);
}

TEST_CASE("rdpmc path: an event moved to another counter inside a window: read_page serves it") {
    QuietRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    OpenGroup g({Event::cycles, Event::instructions, Event::page_faults});
    ActingWork work{&rig.kernel, 3, [&] { rig.pmu.move(TierRig::kCycles, 9, 77); }};
    const counting::PerIteration v = pass_values(*g.path, work, 30, 1);
    CHECK(v.values[0] == 20.0);
    CHECK(v.values[1] == 10.0);
    CHECK(g.rdpmc->stats().slow_reads > 0);
    CHECK(g.rdpmc->stats().read2_fallbacks == 0);  // the page still granted a user read
    CHECK(rig.pmu.bad_reads() == 0);
}

// A "kernel" that changes the instructions page's lock after every rdpmc: it never settles.
void tear_instructions(EmulatedPmu& pmu, void*) {
    perf_event_mmap_page* page = pmu.page(TierRig::kInstructions);
    *static_cast<volatile std::uint32_t*>(&page->lock) = page->lock + 2;
}

TEST_CASE("rdpmc path: a page whose seqlock never settles is read with read(2), counted") {
    QuietRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    OpenGroup g({Event::cycles, Event::instructions, Event::page_faults});
    ActingWork work{&rig.kernel, 2, [&] { rig.pmu.at_trap(0, &tear_instructions); }};
    const counting::PerIteration v = pass_values(*g.path, work, 6, 1);
    CHECK(v.values[0] == 20.0);
    CHECK(v.values[1] == 10.0);
    CHECK(g.rdpmc->stats().torn_fallbacks > 0);
    CHECK(g.rdpmc->stats().read2_fallbacks >= g.rdpmc->stats().torn_fallbacks);
    CHECK(counting::meta_json(*g.path).at("tornFallbacks").as_number() ==
          static_cast<double>(g.rdpmc->stats().torn_fallbacks));
}

TEST_CASE("rdpmc path: an index that moved between passes re-emits the stub") {
    QuietRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    OpenGroup g({Event::cycles, Event::instructions, Event::page_faults});
    ActingWork work{&rig.kernel};
    pass_values(*g.path, work, 10, 5);
    CHECK(g.rdpmc->stats().restubs == 0);
    rig.kernel.reassign(TierRig::kCycles, 7);  // the next ENABLE schedules cycles on counter 7
    const std::uint64_t slow_before = g.rdpmc->stats().slow_reads;
    const counting::PerIteration v = pass_values(*g.path, work, 10, 5);
    CHECK(v.values[0] == 20.0);
    CHECK(g.rdpmc->stats().restubs == 1);
    CHECK(g.rdpmc->stats().slow_reads == slow_before);  // the new stub reads counter 7 directly
    const Json meta = counting::meta_json(*g.path);
    CHECK(meta.at("counters").as_array()[0].at("index").as_number() == 8);
}

TEST_CASE("rdpmc path: counts stay exact while a kernel reprograms and moves counters") {
    QuietRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    OpenGroup g({Event::cycles, Event::instructions, Event::branches, Event::page_faults});
    ActingWork work{&rig.kernel};
    AsyncKernel::Options options;
    options.move_events = true;
    options.spare_counter = 12;
    counting::PerIteration v;
    {
        AsyncKernel kernel(rig.pmu, options);
        v = pass_values(*g.path, work, 300, 1);
        kernel.stop();
        MESSAGE("kernel updates during the pass: "
                << kernel.updates() << ", seqlock retries: " << g.rdpmc->stats().retries
                << ", slow reads: " << g.rdpmc->stats().slow_reads);
    }
    CHECK(v.values[0] == 20.0);
    CHECK(v.values[1] == 10.0);
    CHECK(v.values[2] == 3.0);
    CHECK(v.values[3] == 1.0);
    CHECK(rig.pmu.bad_reads() == 0);
}

TEST_CASE("rdpmc path: no software member and cap_user_time: a bracket makes no system call") {
    QuietRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    rig.kernel.page_times = true;
    OpenGroup g({Event::cycles, Event::instructions});
    REQUIRE(g.path->begin_pass());
    CHECK_FALSE(g.rdpmc->reads_group());
    CHECK(contains(g.path->describe(),
                   "enabled/running from the leader's page (cap_user_time): "
                   "no system call per bracket"));
    Work work{&rig.kernel};
    const int reads = rig.kernel.read_calls;
    const int ioctls = static_cast<int>(rig.kernel.ioctls.size());
    for (int i = 0; i < 10; ++i) {
        const counting::GroupDelta d = g.path->bracket({&glint::detail::run_batch<Work>, &work}, 5);
        REQUIRE(d.ok);
        CHECK(d.counts[0] == 100);
        CHECK(d.counts[1] == 50);
        CHECK(d.enabled == 5 * rig.kernel.ns_per_iteration);  // from the leader's page
        CHECK(d.running == d.enabled);                        // on the PMU throughout
    }
    CHECK(rig.kernel.read_calls == reads);
    CHECK(static_cast<int>(rig.kernel.ioctls.size()) == ioctls);
    g.path->end_pass();
    CHECK(counting::meta_json(*g.path).at("times").as_string() ==
          "the leader's mmap page (cap_user_time)");
}

TEST_CASE("rdpmc path: times from the leader's page scale a multiplexed pass") {
    QuietRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    rig.kernel.page_times = true;
    rig.kernel.ratio = [](std::size_t) { return 0.5; };  // on the PMU half the time it is enabled
    rig.kernel.ns_per_iteration = 10'000;                // enough PMU time (>= 1 ms) to scale
    OpenGroup g({Event::cycles, Event::instructions});
    REQUIRE(g.path->begin_pass());
    REQUIRE_FALSE(g.rdpmc->reads_group());
    Work work{&rig.kernel};
    const counting::GroupDelta d = g.path->bracket({&glint::detail::run_batch<Work>, &work}, 100);
    REQUIRE(d.ok);
    CHECK(d.counts[1] == 1000);
    CHECK(d.enabled == 100 * rig.kernel.ns_per_iteration);
    CHECK(d.running == d.enabled / 2);  // the page's time_running, not its time_enabled
    g.path->end_pass();
    CHECK(rig.kernel.read_calls == 0);  // every time from the page
    // A whole pass: counts scaled by enabled / running (the emulated counters ran throughout,
    // so scaling doubles them) and marked estimated.
    ActingWork acting{&rig.kernel};
    const counting::PerIteration v = pass_values(*g.path, acting, 400, 100);
    CHECK(v.values[0] == 40.0);
    CHECK(v.values[1] == 20.0);
    CHECK(v.estimated);
    CHECK(rig.kernel.read_calls == 0);
}

TEST_CASE("rdpmc path: no software member, no cap_user_time: times come from read(2)") {
    QuietRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    OpenGroup g({Event::cycles, Event::instructions});
    REQUIRE(g.path->begin_pass());
    CHECK(g.rdpmc->reads_group());
    Work work{&rig.kernel};
    const counting::GroupDelta d = g.path->bracket({&glint::detail::run_batch<Work>, &work}, 5);
    REQUIRE(d.ok);
    CHECK(d.counts[1] == 50);
    CHECK(d.enabled == rig.kernel.ns_per_call + 5 * rig.kernel.ns_per_iteration);
    g.path->end_pass();
}
