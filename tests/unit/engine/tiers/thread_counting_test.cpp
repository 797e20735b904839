// TierSet::count_threads (engine/tiers/thread_counting.cpp): a multi-threaded row's passes with
// fake tiers: each thread counts with its own twin, cells are summed, a thread whose twin does
// not open is missed and the sums then read —, process tiers bracket the team, other tiers give
// no cells. Also run under ThreadSanitizer (tests/sanitize: glint_tsan_tests).
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <glint/bench.hpp>

#include "engine/tiers/passes_together.hpp"
#include "engine/tiers/tier_set.hpp"

using namespace glint::engine;
namespace catalog = glint::catalog;

namespace {

Status available(const char* source) { return {source, Status::State::available, {}, {}}; }

catalog::MetricCell cell(const char* name, double value, catalog::Format format,
                         bool estimated = false) {
    catalog::MetricCell c;
    c.name = name;
    c.header = name;
    c.value = value;
    c.format = format;
    c.estimated = estimated;
    return c;
}

// How many twins opened, which one must refuse, and whether one counted off its thread.
struct Seen {
    std::atomic<int> opened{0};
    std::atomic<int> refuse_thread{-1};     // this thread index's twin does not open
    std::atomic<bool> wrong_thread{false};  // a twin counted on a thread that did not open it
};

// A per-thread tier: thread i counts (i + 1) per iteration, a ratio, and thread 1's is an estimate.
struct PerThread final : CountingTier {
    Seen* seen;
    bool twin = false;
    std::thread::id opener;
    explicit PerThread(Seen* s, bool is_twin = false) : seen(s), twin(is_twin) {}
    std::string_view source() const override { return "perthread"; }
    bool wanted(const TierRequest&) const override { return true; }
    std::vector<Status> open(const TierRequest&) override {
        opener = std::this_thread::get_id();
        if (twin && static_cast<int>(glint::thread_index()) == seen->refuse_thread.load())
            return {{"perthread", Status::State::unavailable, "EMFILE: too many open files", ""}};
        if (twin) ++seen->opened;
        return {available("perthread")};
    }
    PassResult count(const Workload& work, const PassPlan& plan) override {
        if (opener != std::this_thread::get_id())
            seen->wrong_thread = true;  // read where it opened?
        work.batch.run(work.batch.ctx, plan.iterations);
        const double mine = glint::thread_index() + 1.0;
        return {{cell("instr", mine, catalog::Format::count, glint::thread_index() == 1),
                 cell("ipc", 2.0, catalog::Format::ratio)},
                Json::object()};
    }
    std::unique_ptr<CountingTier> thread_twin() const override {
        return std::make_unique<PerThread>(seen, true);
    }
};

// A process-wide tier: its pass runs the team's batch on the calling thread.
struct Process final : CountingTier {
    std::string_view source() const override { return "process"; }
    bool wanted(const TierRequest&) const override { return true; }
    std::vector<Status> open(const TierRequest&) override { return {available("process")}; }
    PassResult count(const Workload& work, const PassPlan&) override {
        work.batch.run(work.batch.ctx, 1);
        return {{cell("minflt", 5, catalog::Format::count)}, Json::object()};
    }
    bool counts_process() const override { return true; }
};

// A tier that follows one thread and has no twin.
struct OneThread final : CountingTier {
    std::string_view source() const override { return "syscall"; }
    bool wanted(const TierRequest&) const override { return true; }
    std::vector<Status> open(const TierRequest&) override { return {available("syscall")}; }
    PassResult count(const Workload&, const PassPlan&) override {
        return {{cell("sc", 1, catalog::Format::count)}, {}};
    }
};

struct Calls {
    std::atomic<std::uint64_t> one{0}, team{0};
    static void run_one(void* ctx, std::uint64_t n) { static_cast<Calls*>(ctx)->one += n; }
    static void run_team(void* ctx, std::uint64_t) { ++static_cast<Calls*>(ctx)->team; }
};

TimingSummary timing() {
    TimingSummary t;
    t.iterations_per_sample = 10;
    t.median_ns = 1e6;  // 1 ms an iteration: passes of 20 iterations (20 ms), not the timing's 10
    return t;
}

const catalog::MetricCell& cell_named(const CountedCase& c, const char* name) {
    for (const auto& x : c.cells)
        if (x.name == name) return x;
    FAIL("no cell " << name);
    return c.cells.front();
}

CountedCase count(Seen& seen, Calls& calls, unsigned threads) {
    TierSet set;
    std::vector<std::unique_ptr<Tier>> all;
    all.push_back(std::make_unique<PerThread>(&seen));
    all.push_back(std::make_unique<Process>());
    all.push_back(std::make_unique<OneThread>());
    set.open(TierRequest{}, std::move(all));
    Workload one, team;
    one.batch = {&Calls::run_one, &calls};
    team.batch = {&Calls::run_team, &calls};
    return set.count_threads(one, team, threads, {}, timing(), {});
}

}  // namespace

TEST_CASE("thread counting: each thread counts with its own twin and the row sums count cells") {
    Seen seen;
    Calls calls;
    const CountedCase c = count(seen, calls, 3);
    CHECK(seen.opened == 3);
    CHECK_FALSE(seen.wrong_thread);
    CHECK(calls.one == 3 * 20);  // each thread's pass: 20 iterations (20 ms at 1 ms)
    CHECK(calls.team == 1);      // the process tier bracketed the team
    CHECK(cell_named(c, "instr").value == 1 + 2 + 3);
    CHECK(cell_named(c, "instr").estimated);        // thread 1's was an estimate
    CHECK(std::isnan(cell_named(c, "ipc").value));  // a sum of ratios is no ratio
    CHECK(cell_named(c, "minflt").value == 5);
    for (const auto& x : c.cells) CHECK(x.name != "sc");  // follows one thread: no cells
    const Json& coverage = c.row_fields.at("threadCoverage");
    CHECK(coverage.at("threads").as_number() == 3);
    CHECK(coverage.at("counted").as_number() == 3);
    CHECK(coverage.at("missed").as_number() == 0);
    const auto& each = c.row_fields.at("threadCounts").as_array();
    REQUIRE(each.size() == 3);
    CHECK(each[2].at("instr").as_number() == 3);
    const std::string how = c.row_fields.at("counters").as_string();
    CHECK(how.find("each of the 3 threads counted itself (perthread") == 0);
    CHECK(how.find("process: process-wide") != std::string::npos);
    CHECK(how.find("syscall: not counted, its counters follow one thread") != std::string::npos);
}

TEST_CASE(
    "thread counting: a thread whose twin does not open is missed, named, and the sums read —") {
    Seen seen;
    seen.refuse_thread = 1;
    Calls calls;
    const CountedCase c = count(seen, calls, 2);
    CHECK(std::isnan(cell_named(c, "instr").value));
    const Json& coverage = c.row_fields.at("threadCoverage");
    CHECK(coverage.at("counted").as_number() == 1);
    CHECK(coverage.at("missed").as_number() == 1);
    CHECK(coverage.at("missedWhy").as_array().at(0).as_string() ==
          "perthread on thread 1: EMFILE: too many open files");
    CHECK(c.row_fields.at("threadCounts").as_array().at(1).as_object().empty());
}

// rows[].threadCoverage.passesTogether from the threads' pass spans (start, stop, CPU ns).
TEST_CASE(
    "thread counting: passesTogether weighs the passes' overlap by each thread's on-CPU share") {
    constexpr std::int64_t ms = 1'000'000;
    // Two 10 ms passes side by side, each thread on a CPU throughout: together.
    std::vector<PassSpan> passes{{0, 10 * ms, 10 * ms}, {0, 10 * ms, 10 * ms}};
    CHECK(passes_together(passes) == 1);
    // The same spans, but the second thread ran 4 ms of its 10 (it waited for a CPU the other
    // held): its time was not spent beside the other's.
    passes[1].cpu = 4 * ms;
    CHECK(passes_together(passes) == doctest::Approx(0.4));
    // The least share decides, whichever thread it is.
    passes[0].cpu = 3 * ms;
    CHECK(passes_together(passes) == doctest::Approx(0.3));
    // Overlap: the second pass starts 2.5 ms late (each on a CPU throughout): 7.5 of the
    // shortest pass's 10 ms; and both at once: 0.75 x 0.5.
    passes = {{0, 10 * ms, 10 * ms}, {5 * ms / 2, 25 * ms / 2, 10 * ms}};
    CHECK(passes_together(passes) == doctest::Approx(0.75));
    passes[0].cpu = 5 * ms;
    CHECK(passes_together(passes) == doctest::Approx(0.375));
    // Passes one after the other: nothing at once.
    passes = {{0, 10 * ms, 10 * ms}, {10 * ms, 20 * ms, 10 * ms}};
    CHECK(passes_together(passes) == 0);
    // Not known: an unread CPU clock, an empty pass, no pass.
    passes = {{0, 10 * ms, 10 * ms}, {0, 10 * ms, -1}};
    CHECK(std::isnan(passes_together(passes)));
    passes[1] = {5 * ms, 5 * ms, 0};
    CHECK(std::isnan(passes_together(passes)));
    CHECK(std::isnan(passes_together({})));
}
