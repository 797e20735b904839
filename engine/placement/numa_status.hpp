// engine/placement/numa_status.hpp: the numa-topology capability (--capabilities, JSON
// meta.capabilities): available when the kernel lists NUMA nodes and move_pages answers where
// a page lives; unavailable (with the reason) otherwise.
#pragma once

#include <string>

#include "engine/model/status.hpp"

namespace glint::engine {

Status numa_topology_status(const std::string& sys_root);

}  // namespace glint::engine
