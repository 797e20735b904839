// No OS back end, or one without NUMA and cache topology readers (os/windows/): the pages'
// placement, the nodes and the caches are unknown.
#include <cerrno>

#include "os/numa.hpp"
#include "os/topology.hpp"

namespace glint::os {

PagePlacement page_placement(const void*, std::size_t) {
    PagePlacement p;
    p.error = ENOSYS;
    return p;
}
int bind_memory_to_nodes(const std::vector<unsigned>&) { return ENOSYS; }

Topology read_topology(const std::string&, unsigned cpu) {
    Topology t;
    t.cpu = cpu;
    return t;
}
std::vector<NumaNode> read_numa_nodes(const std::string&) { return {}; }

}  // namespace glint::os
