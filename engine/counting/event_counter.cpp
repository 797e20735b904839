#include "engine/counting/event_counter.hpp"

#include <cerrno>
#include <cmath>

#include "engine/counting/pass_runner.hpp"

namespace glint::engine::counting {

bool EventCounter::open(const std::vector<os::EventSpec>& specs, bool inherit) {
    close();
    refusals_.assign(specs.size(), 0);
    positions_.assign(specs.size(), -1);
    std::vector<std::size_t> members;  // requested indices still in the group
    for (std::size_t i = 0; i < specs.size() && i < os::kMaxGroupEvents; ++i) members.push_back(i);
    for (std::size_t i = members.size(); i < specs.size(); ++i) refusals_[i] = E2BIG;
    while (!members.empty()) {
        os::GroupSpec spec;
        spec.inherit = inherit;
        for (std::size_t i : members) spec.specs.push_back(specs[i]);
        os::OpenFailure failure;
        if (group_.open(spec, failure)) break;
        const std::size_t refused = members[failure.member];
        refusals_[refused] = failure.error != 0 ? failure.error : EINVAL;
        members.erase(members.begin() + static_cast<std::ptrdiff_t>(failure.member));
    }
    if (!group_.is_open()) return false;
    for (std::size_t p = 0; p < members.size(); ++p) positions_[members[p]] = static_cast<int>(p);
    path_ = make_syscall_path(group_);
    open_cost_ = calibrate_path(*path_, group_.spec().events).counts;
    return true;
}

void EventCounter::close() {
    path_.reset();
    group_.close();
}

EventCounts EventCounter::count(const Workload& work, const PassPlan& plan) {
    EventCounts out;
    out.values.assign(refusals_.size(), catalog::kNotMeasured);
    if (!path_) return out;
    const PassOutcome pass = run_pass(*path_, work, plan);
    // The interleaved empty brackets could not be read: fall back to the open-time cost.
    const BracketCost& cost = pass.cost.measured ? pass.cost : open_cost_;
    const PerIteration per = per_iteration(pass.totals, plan.iterations, cost);
    for (std::size_t i = 0; i < positions_.size(); ++i) {
        const int p = positions_[i];
        if (p >= 0 && static_cast<std::size_t>(p) < per.size) out.values[i] = per.values[p];
    }
    out.estimated = per.estimated;
    return out;
}

void EventCounter::add_column_facts(Json& column, std::size_t i, bool counting,
                                    const std::string& reason) const {
    column["counting"] = counting;
    if (!counting) column["reason"] = reason;
    const double cost = open_cost_of(i);
    column["bracketCost"] = counting && std::isfinite(cost) ? Json(cost) : Json();
}

}  // namespace glint::engine::counting
