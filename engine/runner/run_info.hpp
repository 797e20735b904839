// engine/runner/run_info.hpp: the run header (printed above the first table) and JSON meta.
// Both describe the same facts: host, build, timer, effective knobs, provenance, tier states.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/cli/options.hpp"
#include "engine/model/json.hpp"
#include "engine/tiers/tier.hpp"

namespace glint::engine {

std::vector<std::string> header_lines(const Options& options,
                                      const std::vector<std::unique_ptr<Tier>>& open_tiers,
                                      const std::vector<std::string>& tier_notes);

// meta.statuses: what each opened tier established; meta.capabilities: the seven concerns.
Json run_meta(const Options& options, const std::vector<std::unique_ptr<Tier>>& open_tiers,
              const std::vector<Status>& statuses);

}  // namespace glint::engine
