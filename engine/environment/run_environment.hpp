// engine/environment/run_environment.hpp: everything a run records about where it ran, taken
// once after the placement is applied (and the load again at the end): the placement, the
// environment facts and their warnings, the topology, and the core's speed (a probe at the
// start and one at the end: core_speed.hpp). The runner prints header_lines() above
// the first table and end_lines() after the last; JSON gets meta.placement, meta.environment
// and meta.topology. --quiet-environment keeps the warnings out of the header and the end
// lines, never out of JSON.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/environment/checks.hpp"
#include "engine/environment/core_speed.hpp"
#include "engine/model/json.hpp"
#include "engine/placement/placement.hpp"
#include "os/environment.hpp"
#include "os/topology.hpp"

namespace glint::engine {

class RunEnvironment {
  public:
    RunEnvironment(Placement placement, bool quiet, os::SystemRoots roots = {});

    // Warnings said in full once (seen_warnings.hpp): header_lines() reads and updates the
    // state file at `path` (set where the table is on a terminal).
    void say_seen_briefly(std::string path) { seen_path_ = std::move(path); }
    std::vector<std::string> header_lines() const;
    // Reads the load average again and probes the core's speed; a warning line when the load is
    // high or the core's speed changed (unless quiet).
    std::vector<std::string> end_lines();
    // Adds placement, environment and topology to `meta`.
    void add_meta(Json& meta) const;

    const os::EnvironmentFacts& facts() const { return facts_; }
    const std::vector<EnvironmentWarning>& warnings() const { return warnings_; }

  private:
    std::vector<double> joined_speed() const;  // the start probe's chunks, then the end's
    // The lines of warnings `found`: each in full, or (say_seen_briefly) those said in full
    // before in one brief line, remembering the rest as said.
    std::vector<std::string> said(const std::vector<EnvironmentWarning>& found) const;

    os::SystemRoots roots_;
    Placement placement_;
    bool quiet_;
    std::optional<std::string> seen_path_;
    os::EnvironmentFacts facts_;
    std::vector<EnvironmentWarning> warnings_;
    os::Topology topology_;
    os::LoadAverage end_load_;
    std::vector<double> start_speed_, end_speed_;  // probe chunks, ns per step
};

}  // namespace glint::engine
