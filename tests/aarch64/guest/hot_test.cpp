// <glint/hot.hpp> on the guest's real (emulated) arm64 PMU, exact under -icount:
//  - what an inline read pair of {cycles, instructions} costs in instructions, beside the engine's
//    compiled bracket over the same group: exactly the figures of tests/support/headline_costs.hpp
//    (which docs/hot-loop.md quotes);
//  - the distribution of a body of known cost per call, its percentiles asserted exactly;
//  - --per-iteration's measurement loop (engine/tiers/per_iteration) on the same group.
// The measurements open the group the way <glint/hot.hpp> does on arm64 (cycles first, 32-bit
// counters, user access: config1 bit 1) with the guest's own Events and attach it, so the
// engine's bracket can be run over the very same pages; further tests open hot::Group by name
// (os::PerfGroup's user-access opt-in) and run --per-iteration through glint::main.
// Lines starting "glint-measure:" are what the rig reports.
#include <doctest/doctest.h>

#include <glint/bench.hpp>
#include <glint/histogram.hpp>
#include <glint/hot.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>

#include "engine/tiers/per_iteration/per_iteration_tier.hpp"
#include "engine_cases.hpp"
#include "engine_run.hpp"
#include "os/linux/aarch64/bracket.hpp"
#include "preamble.hpp"
#include "support/headline_costs.hpp"

using glint::hot::Group;
using glint::hot::Histogram;
using glint::hot::Path;
using glint::hot::Snapshot;

namespace {

constexpr int kRepeats = 15;  // minima drop interrupts (the meter counts the kernel)

// {cycles, instructions}, opened as <glint/hot.hpp> wants them on arm64.
Events hot_events() {
    return Events({{linux_::kArmv8CpuCycles}, {linux_::kArmv8InstRetired}},
                  OpenOptions{.want_64bit = false});
}

Group<2> attach(const Events& events) {
    glint::hot::Attachment a;
    a.pages[0] = events.page(0);
    a.pages[1] = events.page(1);
    a.slow = &glint::guest::read_group_for_hot;
    a.slow_context = &events;
    return Group<2>::attach(a);
}

struct Meter {
    Events event{{{linux_::kArmv8InstRetired, /*exclude_kernel=*/false}},
                 OpenOptions{.as_group = false}};
};

using Thunk = void (*)(void* context);

// Min over repeats of the meter's delta around thunk(context).
[[gnu::noinline]] std::int64_t metered(const Meter& meter, Thunk thunk, void* context) {
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    const perf_event_mmap_page* page = meter.event.page(0);
    for (int r = 0; r < kRepeats; ++r) {
        const std::int64_t a = linux_::read_page<aarch64::Pmu, false>(page).count;
        thunk(context);
        const std::int64_t b = linux_::read_page<aarch64::Pmu, false>(page).count;
        best = std::min(best, b - a);
    }
    return best;
}

[[gnu::noinline]] void nothing(void*) { asm volatile(""); }

// A hot read pair around a call of the batch, as a user writes it (the group a member of the
// caller's object, like the engine bracket's pages in its call); and the batch call alone.
struct HotPair {
    Group<2> group;
    linux_::Arm64BatchFn batch;
    glint::hot::Delta<2> delta;
    glint::hot::Counts<2> counts;
};
[[gnu::noinline]] void run_hot_pair(void* context) {
    auto* p = static_cast<HotPair*>(context);
    const Snapshot<2> a = p->group.read();
    p->batch(nullptr, 0);
    const Snapshot<2> b = p->group.read();
    p->delta = b - a;
}
[[gnu::noinline]] void run_hot_counts_pair(void* context) {
    auto* p = static_cast<HotPair*>(context);
    const glint::hot::Counts<2> a = p->group.read_counts();
    p->batch(nullptr, 0);
    const glint::hot::Counts<2> b = p->group.read_counts();
    p->counts = b - a;
}
[[gnu::noinline]] void run_batch_alone(void* context) {
    static_cast<HotPair*>(context)->batch(nullptr, 0);
}

// The engine's bracket over the same group, called as a tier calls it.
struct EngineBracket {
    linux_::Arm64BracketFn fn;
    linux_::Arm64BracketCall call;
    std::int64_t deltas[linux_::Arm64GroupPages::kMaxSlots];
};
[[gnu::noinline]] void run_engine_bracket(void* context) {
    auto* b = static_cast<EngineBracket*>(context);
    b->fn(b->call);
}

}  // namespace

TEST_CASE("hot: what an inline read pair of {cycles, instructions} adds, beside the bracket") {
    const std::string cpu = glint::guest::guest_cpu();
    Events events = hot_events();
    REQUIRE_MESSAGE(events.ok(), events.error());
    events.enable();
    HotPair pair{attach(events), &glint::guest::empty_batch, {}, {}};
    INFO(pair.group.status().reason);
    REQUIRE(pair.group.path() == Path::inline_user);
    Meter meter;
    REQUIRE_MESSAGE(meter.event.ok(), meter.event.error());
    meter.event.enable();

    const std::int64_t baseline = metered(meter, &nothing, nullptr);
    const std::int64_t batch_alone = metered(meter, &run_batch_alone, &pair) - baseline;
    const std::int64_t hot_full = metered(meter, &run_hot_pair, &pair) - baseline;
    const std::int64_t counts_full = metered(meter, &run_hot_counts_pair, &pair) - baseline;
    const std::int64_t hot_added = hot_full - batch_alone;
    const std::int64_t counts_added = counts_full - batch_alone;
    std::int64_t hot_self = std::numeric_limits<std::int64_t>::max();
    std::int64_t counts_self = hot_self;
    for (int r = 0; r < kRepeats; ++r) {
        run_hot_pair(&pair);
        hot_self = std::min(hot_self, pair.delta.counts[1]);
        run_hot_counts_pair(&pair);
        counts_self = std::min(counts_self, pair.counts.counts[1]);
    }

    const linux_::Arm64Layout layout = events.layout();
    REQUIRE(layout.specialised);
    EngineBracket engine{linux_::select_user_access_bracket(layout),
                         {events.bracket_pages(), &glint::guest::empty_batch, nullptr, 0, nullptr},
                         {}};
    engine.call.deltas = engine.deltas;
    const std::int64_t engine_full = metered(meter, &run_engine_bracket, &engine) - baseline;
    const std::int64_t engine_added = engine_full - batch_alone;
    meter.event.disable();
    events.disable();

    std::printf(
        "glint-measure: cpu=%s hot read pair {cycles,instructions} + CNTVCT (32-bit "
        "counters, inline): full=%lld added=%lld self=%lld instructions; "
        "read_cost()=%lld\n",
        cpu.c_str(), static_cast<long long>(hot_full), static_cast<long long>(hot_added),
        static_cast<long long>(hot_self), static_cast<long long>(pair.group.read_cost().counts[1]));
    std::printf(
        "glint-measure: cpu=%s hot read_counts pair {cycles,instructions} (no timestamp): "
        "full=%lld added=%lld self=%lld instructions; read_counts_cost()=%lld\n",
        cpu.c_str(), static_cast<long long>(counts_full), static_cast<long long>(counts_added),
        static_cast<long long>(counts_self),
        static_cast<long long>(pair.group.read_counts_cost().counts[1]));
    std::printf(
        "glint-measure: cpu=%s engine bracket {cycles,instructions} over the same group: "
        "full=%lld added=%lld instructions\n",
        cpu.c_str(), static_cast<long long>(engine_full), static_cast<long long>(engine_added));
    // Exactly the table's figures (docs/hot-loop.md quotes them): a change of cost is a deliberate
    // edit.
    namespace headline = glint::test::headline;
    CHECK(counts_added == headline::kArm64HotCountsPair.instructions);
    CHECK(hot_added == headline::kArm64HotReadPair.instructions);
    CHECK(engine_added == headline::kArm64EngineBracket.instructions);
    CHECK(hot_self < hot_added);
    CHECK(counts_self <= hot_self);
}

TEST_CASE("hot: the distribution of a body of known cost is exact") {
    Events events = hot_events();
    REQUIRE_MESSAGE(events.ok(), events.error());
    events.enable();
    Group<2> group = attach(events);
    REQUIRE(group.path() == Path::inline_user);
    // Per 1000 calls of loop_8 (8 instructions per pass): 950 of 1 pass, 45 of 5, 5 of 20. One
    // loop for the empty calls (0 passes) and the real ones, the pass count fixed in a register
    // before the opening read: the same instructions surround every call.
    constexpr int kEmpty = 31;
    constexpr int kCalls = 1000;
    std::int64_t empty[kEmpty];
    std::int64_t deltas[kCalls];
    for (int k = 0; k < kEmpty + kCalls; ++k) {
        const int c = k - kEmpty;
        const std::uint64_t passes = glint::black_box<std::uint64_t>(c < 0          ? 0
                                                                     : c % 200 == 0 ? 20
                                                                     : c % 20 == 0  ? 5
                                                                                    : 1);
        const Snapshot<2> a = group.read();
        glint::guest::loop_8(nullptr, passes);
        const Snapshot<2> b = group.read();
        const std::int64_t instructions = (b - a).counts[1];
        if (c < 0) empty[k] = instructions;
        else deltas[c] = instructions;
    }
    events.disable();
    std::sort(empty, empty + kEmpty);
    const std::int64_t apparatus = empty[0];  // retries only add: the minimum is exact
    CHECK(empty[kEmpty / 2] == apparatus);
    auto h = std::make_unique<Histogram>();
    int inflated = 0;
    for (const std::int64_t d : deltas) {
        h->record(static_cast<std::uint64_t>(d - apparatus));
        const std::int64_t k = d - apparatus;
        inflated += !(k == 8 || k == 40 || k == 160);
    }
    const Histogram::Summary s = h->summary();
    std::printf(
        "glint-measure: cpu=%s hot per-call distribution of loop_8 x {1,5,20}: min=%llu "
        "p50=%llu p90=%llu p99=%llu p99.9=%llu max=%llu (%d of %d calls off by seqlock "
        "retries), empty pair %lld\n",
        glint::guest::guest_cpu().c_str(), static_cast<unsigned long long>(s.min),
        static_cast<unsigned long long>(s.p50), static_cast<unsigned long long>(s.p90),
        static_cast<unsigned long long>(s.p99), static_cast<unsigned long long>(s.p999),
        static_cast<unsigned long long>(s.max), inflated, kCalls,
        static_cast<long long>(apparatus));
    CHECK(s.count == kCalls);
    CHECK(s.min == 8);
    CHECK(s.p50 == 8);
    CHECK(s.p90 == 8);
    CHECK(s.p99 == 40);
    CHECK(s.p999 == 160);
    CHECK(s.max >= 160);
    CHECK(inflated <= 4);
}

TEST_CASE("hot: --per-iteration's measurement loop reads exactly K per call") {
    Events events = hot_events();
    REQUIRE_MESSAGE(events.ok(), events.error());
    events.enable();
    Group<2> group = attach(events);
    REQUIRE(group.path() == Path::inline_user);
    for (const auto& [fn, k] : {std::pair{&glint::guest::loop_3, glint::guest::kLoop3},
                                std::pair{&glint::guest::loop_8, glint::guest::kLoop8}}) {
        glint::engine::Workload work;
        work.batch = {fn, nullptr};
        auto costs = std::make_unique<glint::engine::CallCosts>();
        glint::engine::measure_calls(group, work, 500, *costs);
        const Histogram::Summary s = costs->instructions.summary();
        INFO("K = " << k);
        CHECK(s.count == 500);
        CHECK(s.min == k);
        CHECK(s.p50 == k);
        CHECK(s.p99 == k);
        CHECK(costs->syscall_reads == 0);
        std::printf(
            "glint-measure: cpu=%s per-iteration loop of K=%llu: p50=%llu p99=%llu "
            "max=%llu, empty call %lld instructions\n",
            glint::guest::guest_cpu().c_str(), static_cast<unsigned long long>(k),
            static_cast<unsigned long long>(s.p50), static_cast<unsigned long long>(s.p99),
            static_cast<unsigned long long>(s.max),
            static_cast<long long>(costs->empty_instructions));
    }
    events.disable();
}

TEST_CASE("hot: a group opened another way reads correctly out of line, without a syscall") {
    // Instructions first: the inline reader expects the cycle counter at slot 0, so every read
    // takes the generic reader out of line, still without a system call.
    Events events({{linux_::kArmv8InstRetired}, {linux_::kArmv8CpuCycles}},
                  OpenOptions{.want_64bit = false});
    REQUIRE_MESSAGE(events.ok(), events.error());
    events.enable();
    glint::hot::Attachment a;
    a.pages[0] = events.page(0);
    a.pages[1] = events.page(1);
    a.slow = &glint::guest::read_group_for_hot;  // read(2): must not be used
    a.slow_context = &events;
    Group<2> group = Group<2>::attach(a);
    CHECK(group.path() == Path::out_of_line_user);
    const Snapshot<2> s1 = group.read();
    const std::int64_t syscall = events.read_count(0);
    const Snapshot<2> s2 = group.read();
    CHECK(s1.counts[0] <= syscall);
    CHECK(syscall <= s2.counts[0]);
    events.disable();
}

TEST_CASE("hot: a group opened by name reads inline, and says why not when access is off") {
    {
        glint::guest::ScopedUserAccess access(1);
        Group counters({"cycles", "instructions"});
        INFO(counters.status().reason);
        REQUIRE(counters.ok());
        CHECK(counters.path() == Path::inline_user);
        const glint::hot::Counts<2> a = counters.read_counts();
        glint::guest::loop_8(nullptr, 1000);
        const glint::hot::Counts<2> d = counters.read_counts() - a - counters.read_counts_cost();
        CHECK(d.counts[1] >= 8000);
        CHECK(d.counts[1] <= 8000 + 64);  // the call, and seqlock retries (which only add)
        std::printf(
            "glint-measure: cpu=%s hot::Group by name: %s; loop_8 x 1000 read %lld "
            "instructions\n",
            glint::guest::guest_cpu().c_str(), counters.status().reason,
            static_cast<long long>(d.counts[1]));

        Group reversed({"instructions", "cycles"});
        REQUIRE(reversed.ok());
        CHECK(reversed.path() == Path::out_of_line_user);  // still no system call
        CHECK(std::string(reversed.status().remedy).find("cycles first") != std::string::npos);
    }
    {
        glint::guest::ScopedUserAccess access(0);
        Group counters({"cycles", "instructions"});
        REQUIRE(counters.ok());
        CHECK(counters.path() == Path::syscall);
        INFO(counters.status().reason);
        CHECK(std::string(counters.status().reason).find("perf_user_access") != std::string::npos);
        CHECK(std::string(counters.status().remedy).find("perf_user_access=1") !=
              std::string::npos);
    }
}

TEST_CASE("hot: --per-iteration through the engine, exact per-call differences") {
    glint::guest::ScopedUserAccess access(1);
    const glint::guest::EngineRun run = glint::guest::run_engine(
        {"--bench", "--per-iteration", "--histogram=guest/adds13", "--bench-min-time=1",
         "--filter=guest/adds*", "--perf-iters=2000"},
        glint::guest::RunAs::root);
    INFO("engine output:\n" << run.output);
    REQUIRE(run.failure.empty());
    CHECK(run.status == 0);
    REQUIRE(run.doc.is_object());
    const glint::engine::Json* status =
        glint::guest::find_path(run.doc, {"meta", "tiers", "per-iteration", "status"});
    REQUIRE(status != nullptr);
    CHECK(status->as_string() == "available");
    const glint::engine::Json* adds5 = glint::guest::find_row(run.doc, "guest/adds5");
    const glint::engine::Json* adds13 = glint::guest::find_row(run.doc, "guest/adds13");
    REQUIRE(adds5 != nullptr);
    REQUIRE(adds13 != nullptr);
    const double p50_5 = glint::guest::metric_of(*adds5, "instr-p50");
    const double p99_5 = glint::guest::metric_of(*adds5, "instr-p99");
    const double p50_13 = glint::guest::metric_of(*adds13, "instr-p50");
    const double p99_13 = glint::guest::metric_of(*adds13, "instr-p99");
    // One call of the batch function: the adds plus its loop, the same for both bodies.
    CHECK(p50_13 - p50_5 == glint::guest::kAdds13 - glint::guest::kAdds5);
    CHECK(p99_5 == p50_5);  // exact counts: nothing spreads the distribution but retries
    CHECK(p99_13 == p50_13);
    CHECK(run.output.find("guest/adds13: instructions per call") != std::string::npos);
    CHECK(run.output.find("guest/adds5: instructions per call") == std::string::npos);
    CHECK(glint::guest::find_path(run.doc, {"meta", "tiers", "per-iteration", "histograms",
                                            "guest/adds13", "instructions", "p99.9"}) != nullptr);
    std::printf(
        "glint-measure: cpu=%s --per-iteration instr p50/p99 per call: adds5 %g/%g, "
        "adds13 %g/%g (the batch function's loop included)\n",
        glint::guest::guest_cpu().c_str(), p50_5, p99_5, p50_13, p99_13);
}
