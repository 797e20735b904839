#include "engine/environment/run_environment.hpp"

#include "engine/environment/seen_warnings.hpp"
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
    if (quiet_) return lines;
    for (auto& line : said(warnings_)) lines.push_back(std::move(line));
    return lines;
}

std::vector<std::string> RunEnvironment::end_lines() {
    end_load_ = os::read_load_average(roots_);
    end_speed_ = probe_core_speed();
    std::vector<EnvironmentWarning> found;
    if (auto end = check_end_load(facts_.load, end_load_)) found.push_back(*end);
    if (auto speed = judge_core_speed(joined_speed()))
        if (auto slow = check_core_speed(*speed)) found.push_back(*slow);
    warnings_.insert(warnings_.end(), found.begin(), found.end());
    return quiet_ ? std::vector<std::string>{} : said(found);
}

std::vector<std::string> RunEnvironment::said(const std::vector<EnvironmentWarning>& found) const {
    if (!seen_path_) {
        std::vector<std::string> lines;
        for (const auto& w : found) lines.push_back(warning_line(w));
        return lines;
    }
    auto lines = warning_lines(found, read_seen_checks(*seen_path_), *seen_path_);
    std::vector<std::string> checks;
    for (const auto& w : found) checks.push_back(w.check);
    remember_checks(*seen_path_, checks);
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
