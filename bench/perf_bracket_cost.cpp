// bench/perf_bracket_cost.cpp: what a syscall counter bracket costs on this machine, and why
// the perf tier batches its brackets.
//
//   perf/bracket/syscall      one whole bracket: ioctl(ENABLE) + ioctl(DISABLE) + read(2)
//   perf/bracket/ioctl-pair   the ENABLE + DISABLE pair alone
//   perf/bracket/group-read   one read(2) of the group alone
//   perf/tiny-body            a ~10 ns body (eight dependent multiply-adds)
//   perf/bracketing           one row (a per-call case) whose timed call is one whole bracket and
//                             whose columns are the bracketing study of the tiny body (software
//                             group, task-clock, 100000 iterations, nothing subtracted): ns/iter
//                             bracketed every iteration ("tc b=1"), in one ~1 ms bracket
//                             ("tc batched"), and their ratio ("x inflation"); measured once
//                             when the case registers.
//
// The brackets use the group the perf tier would open here (hardware, or the software group
// when there is no PMU). To see the inflation through the tier itself:
//   glint_bench --bench --filter='perf/tiny-body' --perf                 (batched, ~1 ms brackets)
//   glint_bench --bench --filter='perf/tiny-body' --perf --perf-batch=1  (every iteration)
#include <glint/bench.hpp>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "engine/tiers/perf/bracket_study.hpp"
#include "engine/tiers/perf/group_opener.hpp"
#include "engine/tiers/perf/read_path.hpp"

namespace {

namespace perf = glint::engine::perf;

// The counting group, opened once for the bracket cases; throws (an error row) when perf_event
// is unavailable here, with the reason.
struct BracketRig {
    perf::OpenedGroup opened;
    std::unique_ptr<perf::ReadPath> path;

    static BracketRig& get() {
        static BracketRig rig;
        if (!rig.opened.usable())
            throw std::runtime_error("perf_event unavailable: " + rig.opened.statuses.front().reason);
        return rig;
    }

private:
    BracketRig() : opened(perf::open_counting_group(perf::OpenRequest{})) {
        if (opened.usable()) path = perf::make_syscall_path(opened.group);
    }
};

// About 10 ns: eight dependent multiply-adds.
struct TinyBody {
    std::uint64_t x = 1;
    std::uint64_t operator()() {
        std::uint64_t v = glint::black_box(x);
        for (int i = 0; i < 8; ++i) v = v * 0x9E3779B97F4A7C15ull + 1;
        x = glint::black_box(v);
        return v;
    }
};

}  // namespace

GLINT_BENCH("perf/bracket/syscall") {
    BracketRig& rig = BracketRig::get();
    if (!rig.path->begin_pass()) throw std::runtime_error("the counting group cannot be reset");
    glint::iter([&] { return rig.path->bracket(perf::empty_body(), 0).enabled; });
}

GLINT_BENCH("perf/bracket/ioctl-pair") {
    glint::os::PerfGroup& group = BracketRig::get().opened.group;
    glint::iter([&] { return group.enable() && group.disable(); });
}

GLINT_BENCH("perf/bracket/group-read") {
    glint::os::PerfGroup& group = BracketRig::get().opened.group;
    glint::os::GroupReading reading;
    glint::iter([&] {
        group.read(reading);
        return reading.enabled;
    });
}

GLINT_BENCH("perf/tiny-body") {
    TinyBody body;
    glint::iter(body);
}

GLINT_BENCH("perf/bracketing") {
    BracketRig& rig = BracketRig::get();
    auto body = std::make_shared<TinyBody>();
    const perf::BracketingStudy study = perf::study_bracketing(
        {&glint::detail::run_batch<TinyBody>, body.get()}, 100'000, 100'000);
    if (!study.ok) throw std::runtime_error("bracketing study: " + study.failure);
    if (!rig.path->begin_pass()) throw std::runtime_error("the counting group cannot be reset");
    glint::bench_case(
        {.name = "syscall bracket",
         .labels = {{"study", "bracketing"}},
         .metrics = {glint::Metric{"tc b=1", study.task_clock_batch1, glint::Metric::level},
                     glint::Metric{"tc batched", study.task_clock_batched, glint::Metric::level},
                     glint::Metric{"x inflation", study.inflation(), glint::Metric::level}}},
        [&rig] { return rig.path->bracket(perf::empty_body(), 0).enabled; });
}
