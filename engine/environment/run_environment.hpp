// engine/environment/run_environment.hpp: everything a run records about where it ran, taken
// once after the placement is applied (and the load again at the end): the placement, the
// environment facts and their warnings, the topology. The runner prints header_lines() above
// the first table and end_lines() after the last; JSON gets meta.placement, meta.environment
// and meta.topology. --quiet-environment keeps the warnings out of the header and the end
// lines, never out of JSON.
#pragma once

#include <string>
#include <vector>

#include "engine/environment/checks.hpp"
#include "engine/model/json.hpp"
#include "engine/placement/placement.hpp"
#include "os/environment.hpp"
#include "os/topology.hpp"

namespace glint::engine {

class RunEnvironment {
public:
    RunEnvironment(Placement placement, bool quiet, os::SystemRoots roots = {});

    std::vector<std::string> header_lines() const;
    // Reads the load average again; a warning line when it is high (unless quiet).
    std::vector<std::string> end_lines();
    // Adds placement, environment and topology to `meta`.
    void add_meta(Json& meta) const;

    const os::EnvironmentFacts& facts() const { return facts_; }
    const std::vector<EnvironmentWarning>& warnings() const { return warnings_; }

private:
    os::SystemRoots roots_;
    Placement placement_;
    bool quiet_;
    os::EnvironmentFacts facts_;
    std::vector<EnvironmentWarning> warnings_;
    os::Topology topology_;
    os::LoadAverage end_load_;
};

}  // namespace glint::engine
