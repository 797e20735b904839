// --per-iteration (engine/tiers/per_iteration) on the emulated x86 PMU: every call bracketed
// with the inline hot reads, the empty call subtracted, the distribution of a body whose cost is
// known asserted exactly, the tier's cells, histograms and refusal.
#include <doctest/doctest.h>

#include <glint/bench.hpp>

#include <cstdint>
#include <memory>
#include <string>

#include "engine/tiers/per_iteration/per_iteration_tier.hpp"
#include "support/stub_rig.hpp"

using glint::engine::CallCosts;
using glint::engine::PerIterationGroup;
using glint::engine::Workload;
using glint::test::EmulatedPmu;
using glint::test::Stepping;

namespace {

constexpr std::uint64_t kWrap48 = std::uint64_t{1} << 48;

struct Rig {
    EmulatedPmu pmu{48};
    int cycles = -1;
    int instructions = -1;
    int fallback_calls = 0;

    Rig() {
        cycles = pmu.add_event(0, kWrap48 - 100'000);
        instructions = pmu.add_event(1);
    }

    static void fallback(const void* context, std::int64_t* counts, std::size_t count,
                         std::int64_t& descheduled_ns) {
        auto* rig = const_cast<Rig*>(static_cast<const Rig*>(context));
        ++rig->fallback_calls;
        const int events[] = {rig->cycles, rig->instructions};
        for (std::size_t i = 0; i < count; ++i) counts[i] = rig->pmu.count(events[i]);  // "read(2)"
        descheduled_ns = rig->pmu.descheduled_ns(rig->cycles);
    }

    std::unique_ptr<PerIterationGroup> group() {
        glint::hot::Attachment a;
        a.pages[0] = pmu.page(cycles);
        a.pages[1] = pmu.page(instructions);
        a.slow = &Rig::fallback;
        a.slow_context = this;
        return std::make_unique<PerIterationGroup>(PerIterationGroup::attach(a));
    }
};

// A batch whose every call of one iteration costs a known amount (n = 0: nothing): per 100
// calls, 90 cost 100 cycles, 9 cost 700, 1 costs 5000; instructions 40, or 41 every 4th call.
struct KnownCost {
    Rig* rig = nullptr;
    int calls = 0;
    static void run(void* context, std::uint64_t n) {
        auto* self = static_cast<KnownCost*>(context);
        for (std::uint64_t i = 0; i < n; ++i) {
            const int c = self->calls++;
            self->rig->pmu.advance(self->rig->cycles, c % 100 == 0  ? 5000
                                                      : c % 10 == 0 ? 700
                                                                    : 100);
            self->rig->pmu.advance(self->rig->instructions, c % 4 == 0 ? 41 : 40);
        }
    }
};

}  // namespace

TEST_CASE("per-iteration rig: the distribution of a body with a known cost, apparatus subtracted") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    rig.pmu.set_read_cost(5);  // the apparatus: 2 reads x 5 between each counter's reads
    const auto group = rig.group();
    REQUIRE(group->path() == glint::hot::Path::inline_user);
    KnownCost body{&rig};
    Workload work;
    work.batch = {&KnownCost::run, &body};
    auto costs = std::make_unique<CallCosts>();
    glint::engine::measure_calls(*group, work, 1000, *costs);
    CHECK(body.calls == 1000);
    CHECK(costs->empty_cycles == 10);
    CHECK(costs->empty_instructions == 10);
    CHECK(costs->clamped == 0);
    CHECK(costs->syscall_reads == 0);
    CHECK(rig.fallback_calls == 0);
    const auto c = costs->cycles.summary();
    CHECK(c.count == 1000);
    CHECK(c.min == 100);
    CHECK(c.p50 == 100);
    CHECK(c.p90 == 100);
    CHECK(c.p99 == 700);
    CHECK(c.p999 == 5000);
    CHECK(c.max == 5000);
    const auto i = costs->instructions.summary();
    CHECK(i.p50 == 40);
    CHECK(i.p90 == 41);
    CHECK(i.max == 41);
}

// A call of one iteration costs 100 cycles and 40 instructions, and every 10th call the kernel
// takes the group off the PMU for 300 ns in the middle of it (the counters see only 60 and 24).
struct Descheduling {
    Rig* rig = nullptr;
    int calls = 0;
    static void run(void* context, std::uint64_t n) {
        auto* self = static_cast<Descheduling*>(context);
        EmulatedPmu& pmu = self->rig->pmu;
        for (std::uint64_t i = 0; i < n; ++i) {
            const bool off = self->calls++ % 10 == 9;
            pmu.advance(self->rig->cycles, off ? 60 : 100);
            pmu.advance(self->rig->instructions, off ? 24 : 40);
            if (!off) continue;
            pmu.deschedule(self->rig->cycles);
            pmu.deschedule(self->rig->instructions);
            pmu.advance_time(300);
            pmu.move(self->rig->cycles, 0, 5);
            pmu.move(self->rig->instructions, 1, 7);
        }
    }
};

TEST_CASE("per-iteration rig: calls during which the group was off the PMU are left out") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    const auto group = rig.group();
    REQUIRE(group->path() == glint::hot::Path::inline_user);
    Descheduling body{&rig};
    Workload work;
    work.batch = {&Descheduling::run, &body};
    auto costs = std::make_unique<CallCosts>();
    glint::engine::measure_calls(*group, work, 200, *costs);
    CHECK(costs->descheduled == 20);
    const auto c = costs->cycles.summary();
    CHECK(c.count == 180);
    CHECK(c.min == 100);  // never the short 60 of a descheduled call
    CHECK(costs->instructions.summary().min == 40);
    CHECK(costs->syscall_reads == 0);
}

// glint::iter_batched's batch: each input costs 100000 cycles to build (setup) and each call
// 100 cycles; a call must find its own input, built outside its bracket.
struct Inputs {
    Rig* rig = nullptr;
    int built = 0;
    int used = 0;
    int next = 0;  // inputs built and not yet used
    static void prepare(void* context, std::uint64_t n) {
        auto* self = static_cast<Inputs*>(context);
        self->rig->pmu.advance(self->rig->cycles, 100000 * static_cast<std::int64_t>(n));
        self->built += static_cast<int>(n);
        self->next = static_cast<int>(n);
    }
    static void run(void* context, std::uint64_t n) {
        auto* self = static_cast<Inputs*>(context);
        REQUIRE(static_cast<int>(n) <= self->next);  // never a call without its input
        self->next -= static_cast<int>(n);
        self->used += static_cast<int>(n);
        self->rig->pmu.advance(self->rig->cycles, 100 * static_cast<std::int64_t>(n));
    }
};

TEST_CASE("per-iteration rig: an iter_batched call's input is built outside its bracket") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    const auto group = rig.group();
    Inputs inputs{&rig};
    Workload work;
    work.batch = {&Inputs::run, &inputs, &Inputs::prepare, 1024};
    auto costs = std::make_unique<CallCosts>();
    glint::engine::measure_calls(*group, work, 100, *costs);
    CHECK(inputs.used == 100);
    CHECK(inputs.built >= 100);
    const auto c = costs->cycles.summary();
    CHECK(c.count == 100);
    CHECK(c.max == 100);  // no 100000 of setup in any call
}

TEST_CASE("per-iteration rig: instructions by execution, exact per call") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    rig.pmu.count_user_instructions(rig.instructions);
    const auto group = rig.group();
    Workload work;
    work.batch = {&glint::test::known_loop, nullptr};  // 5 instructions per pass
    auto costs = std::make_unique<CallCosts>();
    {
        Stepping step(rig.pmu);
        glint::engine::measure_calls(*group, work, 30, *costs);
    }
    const auto s = costs->instructions.summary();
    CHECK(s.count == 30);
    CHECK(s.min == 5);
    CHECK(s.p50 == 5);
    CHECK(s.p99 == 5);
    CHECK(s.max == 5);
    CHECK(costs->clamped == 0);
    MESSAGE(
        "per-iteration on x86 (single-stepped): an empty call of a batch function, bracketed, "
        "reads "
        << costs->empty_instructions << " instructions");
}

TEST_CASE("per-iteration rig: the tier's cells, histogram and JSON meta") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    auto tier = glint::engine::make_per_iteration_tier([&rig] { return rig.group(); });
    glint::engine::TierRequest options;
    options.per_iteration = {true, "known*"};
    REQUIRE(tier->wanted(options));
    const auto statuses = tier->open(options);
    REQUIRE(statuses.size() == 1);
    CHECK(statuses[0].state == glint::engine::Status::State::available);
    CHECK(statuses[0].reason.find("every call") != std::string::npos);
    for (const auto& d : tier->family()) {
        CHECK(d.available);
        CHECK(d.is_default);
    }
    KnownCost body{&rig};
    Workload work;
    work.batch = {&KnownCost::run, &body};
    tier->extension()->begin_case("known/cost", "known/cost [size=8]");
    const auto result = tier->count(work, glint::engine::PassPlan{1000, 1});
    REQUIRE(result.cells.size() == 4);
    CHECK(result.cells[0].name == "cycles-p50");
    CHECK(result.cells[0].value == 100);
    CHECK(result.cells[1].name == "cycles-p99");
    CHECK(result.cells[1].value == 700);
    CHECK(result.cells[2].name == "instr-p50");
    CHECK(result.cells[2].value == 40);
    CHECK(result.cells[3].name == "instr-p99");
    CHECK(result.cells[3].value == 41);
    tier->extension()->begin_case("other", "other");
    (void)tier->count(work, glint::engine::PassPlan{10, 1});

    const auto lines = tier->extension()->trailer();
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    CHECK(text.find("known/cost [size=8]: cycles per call") != std::string::npos);  // labelled
    CHECK(text.find("n=1000 min=100 p50=100 p90=100 p99=700 p99.9=5000 max=5000") !=
          std::string::npos);
    CHECK(text.find("other") == std::string::npos);  // not matched by --histogram
    const glint::engine::Json meta = tier->meta();
    CHECK(meta.at("status").as_string() == "available");
    CHECK(meta.at("histograms").at("known/cost [size=8]").at("cycles").at("p99").as_number() ==
          700);
    CHECK(meta.at("cases").at("known/cost [size=8]").at("calls").as_number() == 1000);
    CHECK(meta.at("cases").at("other").at("calls").as_number() == 10);
    CHECK(meta.at("cases").at("known/cost [size=8]").at("descheduledCalls").as_number() == 0);
    CHECK(meta.at("cases").at("known/cost [size=8]").at("tornFallbacks").as_number() == 0);
    CHECK_FALSE(meta.at("histograms").contains("other"));
}

TEST_CASE(
    "per-iteration rig: under --isolate a child's records reach the parent's meta and trailer") {
    // The child's tier counts two cases; the parent's, opened alike, counted none itself.
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    glint::engine::TierRequest options;
    options.per_iteration = {true, "known*"};
    auto child = glint::engine::make_per_iteration_tier([&rig] { return rig.group(); });
    auto parent = glint::engine::make_per_iteration_tier([&rig] { return rig.group(); });
    REQUIRE(child->open(options)[0].usable());
    REQUIRE(parent->open(options)[0].usable());
    CHECK(child->extension()->hand_back().is_null());  // nothing counted yet: nothing to hand back
    KnownCost body{&rig};
    Workload work;
    work.batch = {&KnownCost::run, &body};
    child->extension()->begin_case("known/cost", "known/cost [size=8]");
    (void)child->count(work, glint::engine::PassPlan{1000, 1});
    child->extension()->begin_case("other", "other");
    (void)child->count(work, glint::engine::PassPlan{10, 1});
    const glint::engine::Json child_meta = child->meta();
    const std::vector<std::string> child_trailer = child->extension()->trailer();
    REQUIRE(child_trailer.size() > 2);
    CHECK(parent->extension()->trailer() ==
          std::vector<std::string>{"per-iteration: --histogram=known* matched no measured case"});
    // Through the wire as the isolation pipe carries it: one JSON line.
    parent->extension()->take_from_child(
        glint::engine::Json::parse(child->extension()->hand_back().dump(-1)));
    CHECK(parent->extension()->trailer() == child_trailer);
    const glint::engine::Json parent_meta = parent->meta();
    CHECK(parent_meta.at("cases") == child_meta.at("cases"));
    CHECK(parent_meta.at("histograms") == child_meta.at("histograms"));
    CHECK(
        parent_meta.at("histograms").at("known/cost [size=8]").at("cycles").at("p99").as_number() ==
        700);
    CHECK(child->extension()->hand_back().is_null());  // handed back once
}

TEST_CASE("per-iteration rig: a group that reads with read(2) is refused with the reason") {
    Rig rig;
    GLINT_REQUIRE_EMULATION(rig.pmu);
    rig.pmu.set_user_rdpmc(rig.cycles, false);
    auto tier = glint::engine::make_per_iteration_tier([&rig] { return rig.group(); });
    glint::engine::TierRequest options;
    options.per_iteration.asked = true;
    const auto statuses = tier->open(options);
    REQUIRE(statuses.size() == 1);
    CHECK(statuses[0].state == glint::engine::Status::State::unavailable);
    CHECK(statuses[0].reason.find("a system call per call would measure the apparatus") !=
          std::string::npos);
    CHECK(statuses[0].remedy.find("rdpmc") != std::string::npos);
    for (const auto& d : tier->family()) {
        CHECK_FALSE(d.available);
        CHECK_FALSE(d.is_default);  // omitted from the table, not a column of —
        CHECK(d.reason == statuses[0].reason);
    }
    CHECK(tier->header_notes().front().find("per-iteration: unavailable") == 0);
}
