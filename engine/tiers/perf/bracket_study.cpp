#include "engine/tiers/perf/bracket_study.hpp"

#include <algorithm>
#include <chrono>

#include "engine/tiers/perf/group_opener.hpp"
#include "engine/tiers/perf/messages.hpp"
#include "engine/tiers/perf/pass_runner.hpp"

namespace glint::engine::perf {
namespace {

// Task-clock per iteration of one pass in brackets of `batch`: raw (nothing subtracted) and
// corrected (the pass's interleaved empty brackets subtracted, as the tier does).
bool task_clock_pass(ReadPath& path, Body body, std::uint64_t iterations, std::uint64_t batch,
                     double& raw, double& corrected) {
    Workload work;
    work.batch = body;
    const PassOutcome pass = run_pass(path, work, PassPlan{iterations, batch});
    raw = per_iteration(pass.totals, iterations, BracketCost{}).values[0];
    corrected = per_iteration(pass.totals, iterations, pass.cost).values[0];
    return pass.totals.ok && pass.cost.measured;
}

}  // namespace

BracketingStudy study_bracketing(Body body, std::uint64_t iterations, std::uint64_t batch,
                                 std::uint64_t wall_brackets) {
    BracketingStudy s;
    s.iterations = std::max<std::uint64_t>(iterations, 1);
    s.batch = std::clamp<std::uint64_t>(batch, 1, s.iterations);

    os::PerfGroup group;
    os::OpenFailure failure;
    if (!group.open(os::GroupSpec{software_events()}, failure)) {
        s.failure = open_failed_reason(failure);
        return s;
    }
    auto path = make_syscall_path(group);
    const BracketCost cost = calibrate_path(*path, group.spec().events).counts;
    if (!cost.measured) {
        s.failure = "the empty brackets could not be read";
        return s;
    }
    s.bracket_task_clock_ns = cost.per_bracket[0];

    if (wall_brackets > 0 && path->begin_pass()) {
        const auto start = std::chrono::steady_clock::now();
        for (std::uint64_t i = 0; i < wall_brackets; ++i) path->bracket(empty_body(), 0);
        const std::chrono::duration<double, std::nano> spent =
            std::chrono::steady_clock::now() - start;
        s.bracket_wall_ns = spent.count() / static_cast<double>(wall_brackets);
    }

    if (!task_clock_pass(*path, body, s.iterations, 1, s.task_clock_batch1,
                         s.task_clock_batch1_corrected) ||
        !task_clock_pass(*path, body, s.iterations, s.batch, s.task_clock_batched,
                         s.task_clock_batched_corrected)) {
        s.failure = "a counting pass could not be read";
        return s;
    }
    s.ok = true;
    return s;
}

}  // namespace glint::engine::perf
