// engine/placement/topology_json.hpp: meta.topology, the machine's shape as JSON:
//   {cpus: [online], packages, cores, cpu, smtSiblings: [..], caches: [{level, type, sizeBytes,
//    lineBytes, sharedCpus}], numaNodes: [{id, cpus, memTotalBytes, memFreeBytes}]}
// `cpu` is the CPU whose siblings and caches are listed (the pinned one, or where the run
// started). Unknown values are null; null altogether when the OS does not say.
#pragma once

#include "engine/model/json.hpp"
#include "os/topology.hpp"

namespace glint::engine {

Json topology_json(const os::Topology& topology);

}  // namespace glint::engine
