// engine/capabilities/capabilities.hpp: the seven concerns of the counter-layer audit (seed
// 000), each with its state on this machine, the reason, and the remedy where there is one.
// The runner prints them for --capabilities and stores them in JSON meta.capabilities.
//
// Order and names (stable): scalar-counting, overflow-sampling, precise-data-source,
// symbolization, event-space, numa-topology, event-naming.
//
// States: "not-built" means glint does not implement it (precise data-source sampling,
// NUMA/topology) — a different statement from "unavailable", which means this kernel or
// machine refused it. scalar-counting opens (and closes) a counting group to find out;
// overflow-sampling opens the sampler --profile would use (engine/profile/sampling_choice.hpp);
// symbolization names one of glint's own functions.
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
    std::string node_root = "/sys/devices/system/node";
    const char* pfm_soname = "libpfm.so.4";
};

// Runs once per run, before any tier opens; `perf` shapes the counting group it tries.
std::vector<Status> probe_capabilities(const PerfRequest& perf);
std::vector<Status> probe_capabilities(const PerfRequest& perf, const CapabilityProbeConfig& config);

// The statuses as JSON: [{capability, state, reason, remedy?}, ...] (for meta.capabilities).
Json capabilities_json(const std::vector<Status>& statuses);

}  // namespace glint::engine
