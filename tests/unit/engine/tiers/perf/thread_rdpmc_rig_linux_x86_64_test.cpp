// A multi-threaded row's per-thread rdpmc reads on the emulated x86 PMU, which models per-thread
// counters as the kernel has them (support/emulated_pmu.hpp): TierSet::count_threads runs the
// real perf tier's twins, each opened, enabled and read on its own thread of the team (thread 0
// is the calling one) through its own JIT stub, its own rdpmc and its own fake perf pages.
// Each thread's cells, the row's sums and where each thread's read(2) calls fell are asserted
// exactly. Also run under ThreadSanitizer (tests/sanitize: glint_tsan_tests).
#include <glint/bench.hpp>

#include <atomic>
#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/tiers/tier_set.hpp"
#include "support/rdpmc_rig.hpp"

using namespace glint;
using namespace glint::engine;
using namespace glint::test;

namespace {

constexpr unsigned kMaxTeam = 4;
constexpr std::uint64_t kIterations = 200;
constexpr std::uint64_t kBatch = 20;
constexpr std::uint64_t kStubReads = 12;  // one bracket: the six hardware counters, twice

// Thread i's body: units[i] units of simulated work per iteration (10 instructions and 20
// cycles each: TierRig), on the thread that runs it; it notes that thread's id and whether one
// of its events sits on hardware counter 0 of its context (page index 1) while it counts.
struct TeamBody {
    FakePerfKernel* kernel = nullptr;
    EmulatedPmu* pmu = nullptr;
    std::uint64_t units[kMaxTeam] = {};
    std::atomic<pid_t> tids[kMaxTeam] = {};
    std::atomic<bool> on_counter_0[kMaxTeam] = {};
    static void run(void* ctx, std::uint64_t n) {
        auto* self = static_cast<TeamBody*>(ctx);
        const unsigned i = glint::thread_index();
        const pid_t me = FakePerfKernel::caller();
        self->tids[i].store(me);
        for (int e = 0; e < self->pmu->events(); ++e)  // only this thread changes its events
            if (self->pmu->owner(e) == me && self->pmu->page(e)->index == 1)
                self->on_counter_0[i] = true;
        self->kernel->work(n * self->units[i]);
    }
};

void nothing(void*, std::uint64_t) {}

// The rig with a read cost per emulated rdpmc on every thread's cycles and instructions (the
// apparatus each twin's bracket self-cost subtracts), and the perf tier open in a TierSet.
struct TeamRig : TierRig {
    TierSet set;
    TeamRig() {
        kernel.rdpmc_cost[static_cast<std::size_t>(os::Event::cycles)] = 3;
        kernel.rdpmc_cost[static_cast<std::size_t>(os::Event::instructions)] = 2;
    }
    bool open() {
        TierRequest request = perf_options();
        request.sizing.iterations = kIterations;
        request.sizing.batch = kBatch;
        std::vector<std::unique_ptr<Tier>> all;
        all.push_back(rig_tier());
        set.open(request, std::move(all));
        return !set.empty() && set.meta().at("perf").at("readPath").as_string() == "rdpmc";
    }
    CountedCase count(TeamBody& body, unsigned threads) {
        body.kernel = &kernel;
        body.pmu = &pmu;
        Workload one, team;
        one.batch = {&TeamBody::run, &body};
        team.batch = {&nothing, nullptr};
        TimingSummary timing;
        timing.iterations_per_sample = kIterations;
        timing.median_ns = 1000;
        return set.count_threads(one, team, threads, {}, timing, {});
    }
};

double summed(const CountedCase& c, std::string_view name) {
    for (const auto& x : c.cells)
        if (x.name == name) return x.value;
    FAIL("no cell " << name);
    return 0;
}

// Thread i's bracket reads: its twin read by emulated rdpmc, a whole number of stubs, and no
// read(2) of a perf fd between the rdpmc of one stub (inside a bracket's window).
void check_reads(const TeamRig& rig, pid_t tid, std::uint64_t traps_before) {
    const std::uint64_t traps = rig.pmu.traps_on(tid) - traps_before;
    CHECK(traps >= kStubReads * (kIterations / kBatch));  // at least the pass's own brackets
    CHECK(traps % kStubReads == 0);
    const auto seen = rig.kernel.by_thread.find(tid);
    REQUIRE(seen != rig.kernel.by_thread.end());
    CHECK(seen->second.reads > 0);  // page-faults (software) and the times, around each stub
    int inside = 0, between = 0;
    for (std::uint64_t at : seen->second.traps_at_reads) {
        if (at % kStubReads != 0) ++inside;
        if (at > traps_before) ++between;
    }
    CHECK(inside == 0);
    CHECK(between > 0);  // reads around the pass's stubs, after its first rdpmc
    MESSAGE("thread " << tid << ": " << traps << " emulated rdpmc, " << seen->second.reads
                      << " read(2) of its group, none inside a window");
}

}  // namespace

TEST_CASE("thread rdpmc rig: 2 and 4 threads each count their own K by rdpmc, the row sums N x K") {
    for (unsigned threads : {2u, 4u}) {
        CAPTURE(threads);
        TeamRig rig;
        GLINT_REQUIRE_EMULATION(rig.pmu);
        REQUIRE(rig.open());
        TeamBody body;
        for (auto& u : body.units) u = 3;  // K: 30 instructions an iteration on every thread
        const pid_t main = EmulatedPmu::this_thread();
        const std::uint64_t main_traps = rig.pmu.traps_on(main);  // the main tier's calibration
        const CountedCase c = rig.count(body, threads);

        const Json& coverage = c.row_fields.at("threadCoverage");
        CHECK(coverage.at("counted").as_number() == threads);
        CHECK(coverage.at("missed").as_number() == 0);
        const auto& each = c.row_fields.at("threadCounts").as_array();
        REQUIRE(each.size() == threads);
        std::set<pid_t> tids;
        for (unsigned i = 0; i < threads; ++i) {
            CAPTURE(i);
            CHECK(each[i].at("instr").as_number() == 30.0);  // after the bracket self-cost
            CHECK(each[i].at("cycles").as_number() == 60.0);
            CHECK(each[i].at("page-faults").as_number() == 3.0);
            const pid_t tid = body.tids[i].load();
            tids.insert(tid);
            check_reads(rig, tid, tid == main ? main_traps : 0);
            // Counter 0 of each worker's own context: the main tier's cycles holds the main
            // thread's (its twin, opened after, holds counters 6 to 11 there).
            if (i > 0) CHECK(body.on_counter_0[i].load());
        }
        CHECK(body.tids[0].load() == main);  // thread 0 is the calling thread
        CHECK(tids.size() == threads);
        CHECK(summed(c, "instr") == 30.0 * threads);
        CHECK(summed(c, "cycles") == 60.0 * threads);
        CHECK(rig.pmu.counter(TierRig::kCycles) == 0);
        CHECK(rig.pmu.owner(TierRig::kCycles) == main);
        CHECK(rig.pmu.bad_reads() == 0);
        CHECK_FALSE(rig.kernel.any_enabled());
        CHECK(rig.kernel.live_fds() == 7);  // the twins closed theirs: the main tier's remain
    }
}

TEST_CASE("thread rdpmc rig: threads doing different work each read their own, never another's") {
    TeamRig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    REQUIRE(rig.open());
    TeamBody body;
    for (unsigned i = 0; i < kMaxTeam; ++i) body.units[i] = i + 1;  // thread i: 10 (i + 1) instr
    const CountedCase c = rig.count(body, kMaxTeam);
    const auto& each = c.row_fields.at("threadCounts").as_array();
    REQUIRE(each.size() == kMaxTeam);
    double instructions = 0;
    for (unsigned i = 0; i < kMaxTeam; ++i) {
        CAPTURE(i);
        CHECK(each[i].at("instr").as_number() == 10.0 * (i + 1));
        CHECK(each[i].at("cycles").as_number() == 20.0 * (i + 1));
        instructions += 10.0 * (i + 1);
    }
    CHECK(summed(c, "instr") == instructions);  // 100
    CHECK(rig.pmu.bad_reads() == 0);
}
