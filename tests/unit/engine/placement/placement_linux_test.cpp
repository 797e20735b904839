// --numa-node and --pin applied (engine/placement/placement.hpp) against a fake sysfs with two
// NUMA nodes, on real threads of this host; the kernel's memory binding faked behind the seam.
#include <doctest/doctest.h>

#include <cerrno>
#include <thread>
#include <variant>

#include "engine/placement/placement.hpp"
#include "os/cpu_affinity.hpp"
#include "os/cpu_list.hpp"
#include "os/linux/sys.hpp"
#include "support/fake_tree.hpp"
#include "support/skip.hpp"

using namespace glint::engine;
namespace linux_ = glint::os::linux_;
using glint::test::FakeTree;

namespace {

struct MempolicySeam {
    static inline int mode = -1;
    static inline unsigned long mask = 0;
    static inline int fail_with = 0;
    linux_::SysTable table = linux_::sys();
    std::optional<linux_::ScopedSys> scope;
    MempolicySeam() {
        mode = -1;
        mask = 0;
        fail_with = 0;
        table.set_mempolicy = [](int m, const unsigned long* nodemask, unsigned long) -> long {
            if (fail_with != 0) {
                errno = fail_with;
                return -1;
            }
            mode = m;
            mask = nodemask[0];
            return 0;
        };
        scope.emplace(table);
    }
};

// Node 1 holds the last CPU this process may use, node 0 the others.
struct TwoNodes {
    FakeTree sys;
    std::vector<unsigned> allowed = glint::os::thread_affinity();
    unsigned node1_cpu = 0;
    std::vector<unsigned> node0_cpus;
    TwoNodes() {
        REQUIRE(!allowed.empty());
        node1_cpu = allowed.back();
        node0_cpus.assign(allowed.begin(), allowed.end() - 1);
        sys.write("devices/system/node/node0/cpulist",
                  glint::os::format_cpu_list(node0_cpus) + "\n");
        sys.write("devices/system/node/node1/cpulist", std::to_string(node1_cpu) + "\n");
    }
    glint::os::SystemRoots roots() const { return {sys.root(), "/proc"}; }
};

// Runs apply_placement on a thread of its own, returning the result and that thread's affinity
// afterwards.
std::pair<std::variant<Placement, std::string>, std::vector<unsigned>> apply_on_thread(
    const PlacementRequest& request, const glint::os::SystemRoots& roots) {
    std::variant<Placement, std::string> result;
    std::vector<unsigned> after;
    std::thread t([&] {
        result = apply_placement(request, roots);
        after = glint::os::thread_affinity();
    });
    t.join();
    return {result, after};
}

}  // namespace

TEST_CASE("placement: --numa-node=1 runs on node 1's CPUs with memory bound to node 1") {
    TwoNodes machine;
    MempolicySeam seam;
    PlacementRequest request;
    request.numa_node = 1;
    auto [result, after] = apply_on_thread(request, machine.roots());
    REQUIRE(std::holds_alternative<Placement>(result));
    const Placement& p = std::get<Placement>(result);
    CHECK(after == std::vector<unsigned>{machine.node1_cpu});
    CHECK(p.cpus == std::vector<unsigned>{machine.node1_cpu});
    CHECK(!p.pinned);
    CHECK(p.memory_bound);
    CHECK(MempolicySeam::mode == 2);  // MPOL_BIND
    CHECK(MempolicySeam::mask == 0b10);
    CHECK(placement_line(p) == "placement: not pinned (CPUs " + std::to_string(machine.node1_cpu) +
                                   ") · NUMA node 1 (CPUs " + std::to_string(machine.node1_cpu) +
                                   ", memory bound)");
    CHECK(placement_json(p).at("numaNode").as_number() == 1);
}

TEST_CASE("placement: --pin must name a CPU of the --numa-node") {
    TwoNodes machine;
    if (machine.node0_cpus.empty()) return glint::test::skip("one CPU: no CPU off node 1 to try");
    MempolicySeam seam;
    PlacementRequest request;
    request.numa_node = 1;
    request.pin = PlacementRequest::Pin::cpu;
    request.cpu = machine.node0_cpus.front();
    auto [result, after] = apply_on_thread(request, machine.roots());
    REQUIRE(std::holds_alternative<std::string>(result));
    const std::string c = std::to_string(request.cpu);
    CHECK(std::get<std::string>(result) ==
          "--pin=" + c + ": CPU " + c + " is not on NUMA node 1 (its CPUs here: " +
              std::to_string(machine.node1_cpu) + "); pin one of them");
    CHECK(after == machine.allowed);  // nothing applied
    CHECK(MempolicySeam::mode == -1);
    request.cpu = machine.node1_cpu;  // a CPU of the node: pinned there, memory bound
    auto [ok, pinned_after] = apply_on_thread(request, machine.roots());
    REQUIRE(std::holds_alternative<Placement>(ok));
    CHECK(std::get<Placement>(ok).pinned == machine.node1_cpu);
    CHECK(pinned_after == std::vector<unsigned>{machine.node1_cpu});
}

TEST_CASE("placement: a kernel that refuses the binding leaves nothing applied") {
    TwoNodes machine;
    MempolicySeam seam;
    MempolicySeam::fail_with = EPERM;
    PlacementRequest request;
    request.numa_node = 1;
    auto [result, after] = apply_on_thread(request, machine.roots());
    REQUIRE(std::holds_alternative<std::string>(result));
    CHECK(std::get<std::string>(result).rfind(
              "--numa-node=1: the kernel refused to bind memory to the node "
              "(set_mempolicy: EPERM",
              0) == 0);
    CHECK(after == machine.allowed);
}

TEST_CASE("placement: no request changes nothing") {
    TwoNodes machine;
    auto [result, after] = apply_on_thread({}, machine.roots());
    REQUIRE(std::holds_alternative<Placement>(result));
    CHECK(std::get<Placement>(result).cpus == machine.allowed);
    CHECK(after == machine.allowed);
    CHECK(placement_line(std::get<Placement>(result)) ==
          "placement: not pinned (CPUs " + glint::os::format_cpu_list(machine.allowed) + ")");
}
