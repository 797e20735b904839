#include "engine/environment/run_environment.hpp"

#include "engine/placement/topology_json.hpp"
#include "os/cpu_affinity.hpp"

namespace glint::engine {

RunEnvironment::RunEnvironment(Placement placement, bool quiet, os::SystemRoots roots)
    : roots_(std::move(roots)), placement_(std::move(placement)), quiet_(quiet) {
    facts_ = os::read_environment(roots_, placement_.cpus);
    warnings_ = check_environment(facts_);
    const int here = os::current_cpu();
    const unsigned cpu =
        placement_.pinned ? *placement_.pinned : static_cast<unsigned>(here < 0 ? 0 : here);
    topology_ = os::read_topology(roots_.sys, cpu);
    start_speed_ = probe_core_speed();
}

std::vector<std::string> RunEnvironment::header_lines() const {
    std::vector<std::string> lines = {placement_line(placement_)};
    if (!quiet_)
        for (const auto& w : warnings_) lines.push_back(warning_line(w));
    return lines;
}

std::vector<std::string> RunEnvironment::end_lines() {
    end_load_ = os::read_load_average(roots_);
    end_speed_ = probe_core_speed();
    std::vector<std::string> lines;
    auto warn = [&](const EnvironmentWarning& w) {
        warnings_.push_back(w);
        if (!quiet_) lines.push_back(warning_line(w));
    };
    if (auto end = check_end_load(facts_.load, end_load_)) warn(*end);
    if (auto speed = judge_core_speed(joined_speed()))
        if (auto slow = check_core_speed(*speed)) warn(*slow);
    return lines;
}

std::vector<double> RunEnvironment::joined_speed() const {
    std::vector<double> all = start_speed_;
    all.insert(all.end(), end_speed_.begin(), end_speed_.end());
    return all;
}

void RunEnvironment::add_meta(Json& meta) const {
    meta["placement"] = placement_json(placement_);
    meta["environment"] = environment_json(facts_, end_load_, warnings_, quiet_);
    meta["environment"]["coreSpeed"] =
        core_speed_json(judge_core_speed(joined_speed()), judge_core_speed(start_speed_),
                        judge_core_speed(end_speed_));
    meta["topology"] = topology_json(topology_);
}

}  // namespace glint::engine
