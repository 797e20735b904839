// Runs inside the NUMA guest (tests/numa/rig.sh): two nodes, CPU 0 and 512 MiB on node 0,
// CPU 1 and 512 MiB on node 1. Pages bound to a node must read as that node: through the
// placement the runner applies (--numa-node), glint::numa_nodes_of, and a bench binary's JSON.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <glint/numa.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <thread>
#include <variant>
#include <vector>

#include "engine/capabilities/capabilities.hpp"
#include "engine/model/json.hpp"
#include "engine/placement/placement.hpp"
#include "os/cpu_affinity.hpp"
#include "os/numa.hpp"
#include "os/topology.hpp"
#include "support/process.hpp"

using namespace glint::engine;

namespace {

constexpr std::size_t kBytes = 8u << 20;  // 8 MiB: 2048 pages of 4 KiB

// On a thread of its own: applies `request`, then fills a fresh buffer and asks where its
// pages are. Returns the placement (or the problem), the thread's CPUs and the page nodes.
struct Outcome {
    std::variant<Placement, std::string> placement;
    std::vector<unsigned> cpus;
    glint::PageNodes pages;
};
Outcome touch_under(const PlacementRequest& request) {
    Outcome out;
    std::thread t([&] {
        out.placement = apply_placement(request);
        out.cpus = glint::os::thread_affinity();
        void* mem =
            ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        REQUIRE(mem != MAP_FAILED);
        std::memset(mem, 0x5a, kBytes);  // first touch: the pages are allocated now
        out.pages = glint::numa_nodes_of(mem, kBytes);
        ::munmap(mem, kBytes);
    });
    t.join();
    return out;
}

void measure(const char* what, const glint::PageNodes& p, unsigned node) {
    std::printf("glint-measure: %s: %zu of %zu pages on node %u (%.1f%%)\n", what,
                node < p.on_node.size() ? p.on_node[node] : 0, p.pages, node, p.percent_on(node));
}

}  // namespace

TEST_CASE("numa guest: the kernel lists two nodes, CPU 0 and 512 MiB on each") {
    const auto nodes = glint::os::read_numa_nodes("/sys");
    REQUIRE(nodes.size() == 2);
    CHECK(nodes[0].cpus == std::vector<unsigned>{0});
    CHECK(nodes[1].cpus == std::vector<unsigned>{1});
    for (const auto& n : nodes) {
        REQUIRE(n.mem_total_bytes.has_value());
        CHECK(*n.mem_total_bytes > (400u << 20));
        CHECK(*n.mem_total_bytes <= (512u << 20));
    }
    const auto statuses = probe_capabilities(PerfRequest{});
    CHECK(statuses[5].capability == "numa-topology");
    CHECK(statuses[5].state == Status::State::available);
    CHECK(statuses[5].reason.rfind("2 NUMA nodes: node 0 (CPUs 0, ", 0) == 0);
}

TEST_CASE("numa guest: memory bound to node N is read back on node N, for each node") {
    for (unsigned node : {1u, 0u}) {
        CAPTURE(node);
        PlacementRequest request;
        request.numa_node = node;
        const Outcome o = touch_under(request);
        REQUIRE(std::holds_alternative<Placement>(o.placement));
        CHECK(std::get<Placement>(o.placement).memory_bound);
        CHECK(o.cpus == std::vector<unsigned>{node});
        REQUIRE(o.pages.ok());
        CHECK(o.pages.pages == kBytes / static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)));
        CHECK(o.pages.percent_on(node) == 100.0);
        CHECK(o.pages.percent_on(1 - node) == 0.0);
        measure(node == 1 ? "bound to node 1" : "bound to node 0", o.pages, node);
    }
}

TEST_CASE("numa guest: the binding, not the CPU, decides: bound to node 1 while running on CPU 0") {
    // --numa-node moves the thread too, so first touch alone would land on the node; here the
    // thread stays on the other node's CPU and only the MPOL_BIND binding puts pages on node 1.
    for (unsigned node : {1u, 0u}) {
        CAPTURE(node);
        glint::PageNodes pages;
        std::thread t([&] {
            REQUIRE(glint::os::set_thread_affinity({1 - node}) == 0);
            REQUIRE(glint::os::bind_memory_to_nodes({node}) == 0);
            void* mem =
                ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            REQUIRE(mem != MAP_FAILED);
            std::memset(mem, 0x5a, kBytes);
            pages = glint::numa_nodes_of(mem, kBytes);
            ::munmap(mem, kBytes);
        });
        t.join();
        REQUIRE(pages.ok());
        CHECK(pages.percent_on(node) == 100.0);
        measure(node == 1 ? "bound to node 1 from CPU 0" : "bound to node 0 from CPU 1", pages,
                node);
    }
}

TEST_CASE("numa guest: unbound, first touch follows the pinned CPU's node") {
    // The kernel's default policy allocates on the faulting CPU's node: numa_nodes_of must see
    // node 1 because the pages are there, not because a binding said so.
    PlacementRequest request;
    request.pin = PlacementRequest::Pin::cpu;
    request.cpu = 1;
    const Outcome o = touch_under(request);
    REQUIRE(std::holds_alternative<Placement>(o.placement));
    CHECK_FALSE(std::get<Placement>(o.placement).memory_bound);
    REQUIRE(o.pages.ok());
    CHECK(o.pages.percent_on(1) == 100.0);
    measure("first touch on CPU 1", o.pages, 1);
}

TEST_CASE("numa guest: a bench run with --numa-node states where its buffer's pages live") {
    for (unsigned node : {1u, 0u}) {
        CAPTURE(node);
        const std::string json = "/tmp/glint-numa-" + std::to_string(node) + ".json";
        const auto r = glint::test::run_process(
            {"/bin/glint_fixture_noise", "--bench", "--bench-min-time=1", "--filter=numa/*",
             "--numa-node=" + std::to_string(node), "--bench-json=" + json});
        std::fputs(r.out.c_str(), stdout);
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        CHECK(r.out.find("placement: not pinned (CPUs " + std::to_string(node) + ") · NUMA node " +
                         std::to_string(node) + " (CPUs " + std::to_string(node) +
                         ", memory bound)") != std::string::npos);
        const Json doc = Json::parse(glint::test::read_file(json));
        const Json& meta = doc.at("meta");
        CHECK(meta.at("placement").at("numaNode").as_number() == node);
        CHECK(meta.at("placement").at("memoryBound").as_bool());
        CHECK(meta.at("topology").at("numaNodes").as_array().size() == 2);
        const Json& metrics = doc.at("rows").as_array().at(0).at("metrics");
        const std::string here = "numa:node" + std::to_string(node),
                          there = "numa:node" + std::to_string(1 - node);
        CHECK(metrics.at(here).as_number() == 100.0);
        CHECK(metrics.at(there).as_number() == 0.0);
        std::printf("glint-measure: glint_fixture_noise --numa-node=%u: %s %g, %s %g\n", node,
                    here.c_str(), metrics.at(here).as_number(), there.c_str(),
                    metrics.at(there).as_number());
    }
}
