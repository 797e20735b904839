#include "engine/counting/bracket_study.hpp"

#include <algorithm>

#include "engine/counting/pass_runner.hpp"

namespace glint::engine::counting {
namespace {

// The anchor per iteration of one pass in brackets of `batch`: raw (nothing subtracted) and
// corrected (the pass's interleaved empty brackets subtracted, as the tier does).
bool anchor_pass(ReadPath& path, Body body, std::size_t anchor, const PassPlan& plan, double& raw,
                 double& corrected) {
    Workload work;
    work.batch = glint::detail::Batch{body.run, body.ctx};
    const PassOutcome pass = run_pass(path, work, plan);
    raw = per_iteration(pass.totals, plan.iterations, BracketCost{}).values[anchor];
    corrected = per_iteration(pass.totals, plan.iterations, pass.cost).values[anchor];
    return pass.totals.ok && pass.cost.measured;
}

}  // namespace

BracketingStudy study_path(ReadPath& path, const std::vector<os::Event>& members,
                           std::size_t anchor, Body body, std::uint64_t iterations,
                           std::uint64_t batch) {
    BracketingStudy s;
    s.iterations = std::max<std::uint64_t>(iterations, 1);
    s.batch = std::clamp<std::uint64_t>(batch, 1, s.iterations);
    if (anchor >= members.size()) {
        s.failure = "the anchor is not a member of the group";
        return s;
    }
    s.cost = calibrate_path(path, members);
    if (!s.cost.counts.measured) {
        s.failure = "the empty brackets could not be read";
        return s;
    }
    s.anchor_per_bracket = s.cost.counts.per_bracket[anchor];
    if (!anchor_pass(path, body, anchor, PassPlan{s.iterations, 1}, s.batch1_raw, s.batch1) ||
        !anchor_pass(path, body, anchor, PassPlan{s.iterations, s.batch}, s.batched_raw,
                     s.batched)) {
        s.failure = "a counting pass could not be read";
        return s;
    }
    s.ok = true;
    return s;
}

}  // namespace glint::engine::counting
