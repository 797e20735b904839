// <glint/numa.hpp>: on which NUMA node the pages of a buffer live.
//
//   glint::PageNodes where = glint::numa_nodes_of(buffer.data(), buffer.size());
//   glint::bench_case({.name = "scan", .metrics = glint::numa_metrics(p, bytes)}, ...);
//
// Contracts: numa_nodes_of asks the kernel on every call where each page is now (a page never
// touched is not_present); it never throws for the environment (error says why). numa_metrics
// gives one "numa:node<N>" level Metric per node: the percent of the range's pages on N when it
// is called (call it after filling the buffer); untouched pages count against every node; a
// value that could not be read is NaN.
// Rationale and details: "<glint/numa.hpp>" in glint's documentation (rationale.md).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <glint/bench.hpp>

namespace glint {

struct PageNodes {
    std::size_t pages = 0;             // pages the range touches
    std::vector<std::size_t> on_node;  // on_node[n]: pages on node n
    std::size_t not_present = 0;       // pages not faulted in yet: on no node
    std::size_t unknown = 0;           // pages the kernel reported an error for
    std::string error;                 // why the kernel could not answer; "" when it did

    bool ok() const { return error.empty(); }
    // Percent (0..100) of the range's pages on `node`; NaN when !ok() or the range is empty.
    double percent_on(unsigned node) const;
};

PageNodes numa_nodes_of(const void* ptr, std::size_t bytes);

// One "numa:node<N>" column per NUMA node of this machine (see above); a single numa:node0
// of NaN where the machine's nodes are unknown.
std::vector<Metric> numa_metrics(const void* ptr, std::size_t bytes);

}  // namespace glint
