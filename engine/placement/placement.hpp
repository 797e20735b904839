// engine/placement/placement.hpp: where the run's measuring thread runs and where its memory
// comes from (--pin, --numa-node), applied once, before anything is measured.
//
//   --pin=CPU        the thread may run on CPU only (it must be one the process may use)
//   --pin=auto       the least busy of the CPUs it may use: /proc/stat sampled over
//                    kAutoPinSampleMs, the smallest busy share wins (ties: the lowest number)
//   --numa-node=N    the thread may run on node N's CPUs only (with --pin: the pinned CPU must
//                    be one of them; auto chooses among them) and its memory is bound to node N
//                    (set_mempolicy MPOL_BIND): every page it faults in from then on, the
//                    cases' buffers included, comes from node N or the allocation fails.
// Cases run on the thread that applied the placement (the runner's), so they inherit it.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/model/json.hpp"
#include "os/environment.hpp"

namespace glint::engine {

inline constexpr int kAutoPinSampleMs = 100;

struct PlacementRequest {
    enum class Pin { none, cpu, automatic };
    Pin pin = Pin::none;
    unsigned cpu = 0;  // Pin::cpu
    std::optional<unsigned> numa_node;
    bool any() const { return pin != Pin::none || numa_node.has_value(); }
};

struct Placement {
    PlacementRequest request;
    std::vector<unsigned> allowed;   // the thread's CPUs before the placement
    std::vector<unsigned> cpus;      // the thread's CPUs during the run
    std::optional<unsigned> pinned;  // the one CPU, when pinned
    std::string chosen_by;           // how the pinned CPU was chosen ("--pin=1", "--pin=auto: ...")
    bool memory_bound = false;       // memory bound to request.numa_node
};

// Applies `request` to the calling thread. A request that cannot be met (a CPU the process may
// not use, a node that does not exist or has no usable CPU, a kernel that refuses) returns the
// one-line problem naming the flag and the fix; nothing is applied then.
std::variant<Placement, std::string> apply_placement(const PlacementRequest& request,
                                                     const os::SystemRoots& roots = {});

// "placement: pinned to CPU 1 (--pin=auto: ...) · NUMA node 1, memory bound" or
// "placement: not pinned (CPUs 0-1)".
std::string placement_line(const Placement& placement);

// meta.placement.
Json placement_json(const Placement& placement);

}  // namespace glint::engine
