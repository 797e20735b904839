// engine/capabilities/capabilities.hpp: the seven concerns of the counter-layer audit and
// instruction-level cases, each with its state on this machine, the reason and, where there is
// one, the remedy (--capabilities, JSON meta.capabilities).
//
// Order and names (stable): scalar-counting, overflow-sampling, precise-data-source,
// symbolization, event-space, numa-topology, event-naming, instruction-level, thread-coverage,
// simulated-cpu (--simulate: Callgrind's simulated CPU). "not-built" (glint
// does not implement it) differs from "unavailable" (this kernel or machine refused it). Probing
// opens and closes what it asks about. Rationale and details: docs/rationale.md,
// "engine/capabilities/capabilities.hpp".
#pragma once

#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "engine/model/status.hpp"
#include "engine/tiers/request.hpp"
#include "os/perf_probes.hpp"

namespace glint::engine {

// Where the probes look (tests point them at fakes); production uses the defaults.
struct CapabilityProbeConfig {
    std::string pmu_root = os::kPmuSysfsRoot;
    std::string sys_root = "/sys";  // NUMA nodes: <sys_root>/devices/system/node
    const char* pfm_soname = "libpfm.so.4";
};

// Runs once per run, before any tier opens; `perf` shapes the counting group it tries.
std::vector<Status> probe_capabilities(const PerfRequest& perf);
std::vector<Status> probe_capabilities(const PerfRequest& perf,
                                       const CapabilityProbeConfig& config);

// The statuses as JSON: [{capability, state, reason, remedy?}, ...] (for meta.capabilities).
Json capabilities_json(const std::vector<Status>& statuses);

}  // namespace glint::engine
