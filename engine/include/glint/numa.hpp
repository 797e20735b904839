// <glint/numa.hpp>: on which NUMA node the pages of a buffer live.
//
//   std::vector<char> buffer(1 << 20, 'x');            // touched: its pages exist
//   glint::PageNodes where = glint::numa_nodes_of(buffer.data(), buffer.size());
//   std::printf("%.0f%% of pages on node 1\n", where.percent_on(1));
//
//   glint::bench_case({.name = "scan", .metrics = glint::numa_metrics(buffer.data(), buffer.size())},
//                     ...);                             // numa:node0, numa:node1, ... columns
//
// Contracts:
//  - numa_nodes_of asks the kernel (Linux: move_pages(2) with no target nodes, which moves
//    nothing) where each page of [ptr, ptr + bytes) is now. A page never touched is on no node
//    (not_present). Nothing is cached; each call asks again. Never throws for the environment:
//    when the kernel cannot answer (no NUMA support, another OS), error says why.
//  - numa_metrics is a column family for bench_case rows: one level Metric per NUMA node of
//    this machine, named "numa:node<N>", holding the percent of the range's pages on node N
//    when numa_metrics is called (so call it after the buffer is filled; the run's --numa-node
//    binding is in force by then). Untouched pages count against every node, so the columns
//    add up to less than 100 when part of the range was never touched. A value that could not
//    be read is NaN (the table's "—").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <glint/bench.hpp>

namespace glint {

struct PageNodes {
    std::size_t pages = 0;              // pages the range touches
    std::vector<std::size_t> on_node;   // on_node[n]: pages on node n
    std::size_t not_present = 0;        // pages not faulted in yet: on no node
    std::size_t unknown = 0;            // pages the kernel reported an error for
    std::string error;                  // why the kernel could not answer; "" when it did

    bool ok() const { return error.empty(); }
    // Percent (0..100) of the range's pages on `node`; NaN when !ok() or the range is empty.
    double percent_on(unsigned node) const;
};

PageNodes numa_nodes_of(const void* ptr, std::size_t bytes);

// One "numa:node<N>" column per NUMA node of this machine (see above); a single numa:node0
// of NaN where the machine's nodes are unknown.
std::vector<Metric> numa_metrics(const void* ptr, std::size_t bytes);

}  // namespace glint
