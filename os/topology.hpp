// os/topology.hpp: the machine's shape, read from sysfs under a configurable root (tests: a
// fake tree). Linux: /sys/devices/system/cpu (topology/, cache/) and /sys/devices/system/node;
// other systems: `known` false.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace glint::os {

struct CacheLevel {
    unsigned level = 0;
    std::string type;  // "Data", "Instruction", "Unified"
    std::optional<std::uint64_t> size_bytes;
    std::optional<unsigned> line_bytes;  // coherency_line_size
    std::vector<unsigned> shared_cpus;   // shared_cpu_list
};

struct NumaNode {
    unsigned id = 0;
    std::vector<unsigned> cpus;                                    // cpulist
    std::optional<std::uint64_t> mem_total_bytes, mem_free_bytes;  // meminfo
};

struct Topology {
    bool known = false;
    std::vector<unsigned> online_cpus;   // cpu/online
    std::size_t packages = 0;            // distinct physical_package_id of the online CPUs
    std::size_t cores = 0;               // distinct (package, core_cpus_list) of the online CPUs
    unsigned cpu = 0;                    // the CPU the next two describe
    std::vector<unsigned> smt_siblings;  // thread_siblings_list of `cpu` (itself included)
    std::vector<CacheLevel> caches;      // cache/index* of `cpu`, in index order
    std::vector<NumaNode> nodes;         // node/node*, by id; empty when the kernel has no NUMA
};

// Reads the topology; `cpu` is the one whose siblings and caches are described (the pinned
// CPU, or the one the thread runs on).
Topology read_topology(const std::string& sys_root, unsigned cpu);

// Only the NUMA nodes (/sys/devices/system/node/node*), by id.
std::vector<NumaNode> read_numa_nodes(const std::string& sys_root);

}  // namespace glint::os
