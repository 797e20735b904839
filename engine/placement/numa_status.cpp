#include "engine/placement/numa_status.hpp"

#include <fmt/format.h>

#include "os/cpu_list.hpp"
#include "os/errors.hpp"
#include "os/numa.hpp"
#include "os/topology.hpp"

namespace glint::engine {
namespace {

std::string mebibytes(const std::optional<std::uint64_t>& bytes) {
    return bytes ? fmt::format("{} MiB", *bytes >> 20) : std::string("memory unknown");
}

}  // namespace

Status numa_topology_status(const std::string& sys_root) {
    const auto nodes = os::read_numa_nodes(sys_root);
    if (nodes.empty())
        return {
            "numa-topology", Status::State::unavailable,
            fmt::format("the kernel lists no NUMA nodes ({}/devices/system/node): --numa-node and "
                        "page placement (glint::numa_nodes_of) need a kernel with NUMA support",
                        sys_root),
            "a kernel built with CONFIG_NUMA"};
    std::string listing;
    for (const auto& n : nodes)
        listing += fmt::format("{}node {} (CPUs {}, {})", listing.empty() ? "" : ", ", n.id,
                               n.cpus.empty() ? std::string("none") : os::format_cpu_list(n.cpus),
                               mebibytes(n.mem_total_bytes));
    const std::string found =
        fmt::format("{} NUMA node{}: {}", nodes.size(), nodes.size() == 1 ? "" : "s", listing);
    int probe = 1;
    const os::PagePlacement p = os::page_placement(&probe, sizeof probe);
    if (!p.ok())
        return {
            "numa-topology", Status::State::unavailable,
            fmt::format("{}; but move_pages cannot say where pages live ({}), so page placement is "
                        "unknown",
                        found, os::describe_errno(p.error)),
            ""};
    return {"numa-topology", Status::State::available,
            found +
                "; --numa-node=N binds a run's CPU and memory, glint::numa_nodes_of and the "
                "numa:node<N> "
                "columns read page placement (move_pages), JSON meta.topology records the layout",
            ""};
}

}  // namespace glint::engine
