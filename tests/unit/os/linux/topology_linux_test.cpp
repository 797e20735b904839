// The topology reader against a fake sysfs with two packages, SMT and two NUMA nodes.
#include <doctest/doctest.h>

#include "os/topology.hpp"
#include "support/fake_tree.hpp"

using namespace glint::os;
using glint::test::FakeTree;

namespace {

// Two packages of two cores of two threads: CPUs {0,4} {1,5} on package 0 / node 0,
// {2,6} {3,7} on package 1 / node 1.
void two_node_machine(const FakeTree& sys) {
    sys.write("devices/system/cpu/online", "0-7\n");
    for (unsigned c = 0; c < 8; ++c) {
        const std::string dir = "devices/system/cpu/cpu" + std::to_string(c) + "/";
        const unsigned core = c % 4, package = core / 2;
        sys.write(dir + "topology/physical_package_id", std::to_string(package) + "\n");
        sys.write(dir + "topology/core_cpus_list",
                  std::to_string(core) + "," + std::to_string(core + 4) + "\n");
        sys.write(dir + "topology/thread_siblings_list",
                  std::to_string(core) + "," + std::to_string(core + 4) + "\n");
    }
    const std::string cache = "devices/system/cpu/cpu1/cache/";
    sys.write(cache + "index0/level", "1\n");
    sys.write(cache + "index0/type", "Data\n");
    sys.write(cache + "index0/size", "32K\n");
    sys.write(cache + "index0/coherency_line_size", "64\n");
    sys.write(cache + "index0/shared_cpu_list", "1,5\n");
    sys.write(cache + "index1/level", "2\n");
    sys.write(cache + "index1/type", "Unified\n");
    sys.write(cache + "index1/size", "1024K\n");
    sys.write(cache + "index1/coherency_line_size", "64\n");
    sys.write(cache + "index1/shared_cpu_list", "1,5\n");
    sys.write(cache + "index2/level", "3\n");
    sys.write(cache + "index2/type", "Unified\n");
    sys.write(cache + "index2/size", "32M\n");
    sys.write(cache + "index2/shared_cpu_list", "0-1,4-5\n");
    sys.write("devices/system/node/node0/cpulist", "0-1,4-5\n");
    sys.write("devices/system/node/node0/meminfo",
              "Node 0 MemTotal:        2048000 kB\nNode 0 MemFree:         1024000 kB\n"
              "Node 0 MemUsed:         1024000 kB\n");
    sys.write("devices/system/node/node1/cpulist", "2-3,6-7\n");
    sys.write("devices/system/node/node1/meminfo",
              "Node 1 MemTotal:        4096000 kB\nNode 1 MemFree:         4000000 kB\n");
    sys.write("devices/system/node/online", "0-1\n");  // not a node directory
}

}  // namespace

TEST_CASE("topology: packages, cores, the SMT siblings and caches of one CPU") {
    FakeTree sys;
    two_node_machine(sys);
    const Topology t = read_topology(sys.root(), 1);
    CHECK(t.known);
    CHECK(t.online_cpus.size() == 8);
    CHECK(t.packages == 2);
    CHECK(t.cores == 4);
    CHECK(t.cpu == 1);
    CHECK(t.smt_siblings == std::vector<unsigned>{1, 5});
    REQUIRE(t.caches.size() == 3);
    CHECK(t.caches[0].level == 1);
    CHECK(t.caches[0].type == "Data");
    CHECK(t.caches[0].size_bytes == 32u * 1024);
    CHECK(t.caches[0].line_bytes == 64u);
    CHECK(t.caches[1].size_bytes == 1024u * 1024);
    CHECK(t.caches[2].size_bytes == 32ull << 20);
    CHECK(!t.caches[2].line_bytes);  // absent file: unknown, not 0
    CHECK(t.caches[2].shared_cpus == std::vector<unsigned>{0, 1, 4, 5});
}

TEST_CASE("topology: two NUMA nodes with their CPUs and memory") {
    FakeTree sys;
    two_node_machine(sys);
    const auto nodes = read_numa_nodes(sys.root());
    REQUIRE(nodes.size() == 2);
    CHECK(nodes[0].id == 0);
    CHECK(nodes[0].cpus == std::vector<unsigned>{0, 1, 4, 5});
    CHECK(nodes[0].mem_total_bytes == 2048000ull * 1024);
    CHECK(nodes[0].mem_free_bytes == 1024000ull * 1024);
    CHECK(nodes[1].id == 1);
    CHECK(nodes[1].cpus == std::vector<unsigned>{2, 3, 6, 7});
    CHECK(nodes[1].mem_total_bytes == 4096000ull * 1024);
    CHECK(read_topology(sys.root(), 0).nodes.size() == 2);
}

TEST_CASE("topology: a kernel without NUMA has no nodes, and no sysfs knows nothing") {
    FakeTree sys;
    sys.write("devices/system/cpu/online", "0\n");
    const Topology t = read_topology(sys.root(), 0);
    CHECK(t.known);
    CHECK(t.nodes.empty());
    CHECK(t.smt_siblings.empty());
    FakeTree empty;
    CHECK(!read_topology(empty.root(), 0).known);
}

TEST_CASE("topology: this host's sysfs lists the CPU the test runs on") {
    const Topology t = read_topology("/sys", 0);
    REQUIRE(t.known);
    CHECK(!t.online_cpus.empty());
    CHECK(t.packages >= 1);
    CHECK(t.cores >= 1);
}
