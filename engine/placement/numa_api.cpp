// <glint/numa.hpp> over os/numa.hpp and the machine's nodes (os/topology.hpp).
#include <glint/numa.hpp>

#include <algorithm>
#include <cmath>

#include "os/errors.hpp"
#include "os/numa.hpp"
#include "os/topology.hpp"

namespace glint {

double PageNodes::percent_on(unsigned node) const {
    if (!ok() || pages == 0) return NAN;
    const std::size_t n = node < on_node.size() ? on_node[node] : 0;
    return 100.0 * static_cast<double>(n) / static_cast<double>(pages);
}

PageNodes numa_nodes_of(const void* ptr, std::size_t bytes) {
    const os::PagePlacement p = os::page_placement(ptr, bytes);
    PageNodes out;
    out.pages = p.pages;
    if (!p.ok()) {
        out.error =
            "the kernel cannot say where pages live: move_pages: " + os::describe_errno(p.error);
        return out;
    }
    out.on_node = p.on_node;
    out.not_present = p.not_present;
    out.unknown = p.unknown;
    return out;
}

std::vector<Metric> numa_metrics(const void* ptr, std::size_t bytes) {
    const PageNodes where = numa_nodes_of(ptr, bytes);
    std::vector<unsigned> nodes;
    for (const auto& n : os::read_numa_nodes("/sys")) nodes.push_back(n.id);
    for (unsigned n = 0; n < where.on_node.size(); ++n)  // a node sysfs did not list
        if (where.on_node[n] > 0 && std::find(nodes.begin(), nodes.end(), n) == nodes.end())
            nodes.push_back(n);
    if (nodes.empty()) nodes.push_back(0);
    std::vector<Metric> metrics;
    for (unsigned n : nodes)
        metrics.push_back(
            Metric{"numa:node" + std::to_string(n), where.percent_on(n), Metric::level});
    return metrics;
}

}  // namespace glint
