// engine/runner/bench/run_info.hpp: the run header (printed above the first table) and JSON meta.
// Both describe the same facts: host, build, timer, effective knobs, provenance, tier states.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/cli/run_plan.hpp"
#include "engine/model/json.hpp"
#include "engine/model/status.hpp"
#include "engine/tiers/tier_set.hpp"

namespace glint::engine {

// The run header: host, timer, protocol, build warnings, then `notes` (tiers, baseline).
std::vector<std::string> header_lines(const Measuring& measuring,
                                      const std::vector<std::string>& notes);

// meta.tiers and meta.statuses: what each opened tier established; meta.capabilities: the
// probe's seven concerns (probed once, before the tiers opened); meta.knobs: `knobs`.
Json run_meta(const Json& knobs, const TierSet& tiers, const std::vector<Status>& capabilities);

}  // namespace glint::engine
