#include "engine/placement/placement.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "engine/model/json_values.hpp"
#include "os/cpu_affinity.hpp"
#include "os/cpu_list.hpp"
#include "os/errors.hpp"
#include "os/numa.hpp"
#include "os/topology.hpp"

namespace glint::engine {
namespace {

using os::format_cpu_list;

bool contains(const std::vector<unsigned>& v, unsigned x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

std::vector<unsigned> intersect(const std::vector<unsigned>& a, const std::vector<unsigned>& b) {
    std::vector<unsigned> out;
    for (unsigned x : a)
        if (contains(b, x)) out.push_back(x);
    return out;
}

std::string list_or_none(const std::vector<unsigned>& cpus) {
    return cpus.empty() ? std::string("none") : format_cpu_list(cpus);
}

// --pin=auto: the least busy of `candidates` over kAutoPinSampleMs.
std::variant<unsigned, std::string> least_busy(const std::vector<unsigned>& candidates,
                                               const os::SystemRoots& roots, std::string& how) {
    if (candidates.size() == 1) {
        how = fmt::format("--pin=auto: CPU {} is the only one allowed", candidates.front());
        return candidates.front();
    }
    const auto before = os::read_cpu_times(roots);
    std::this_thread::sleep_for(std::chrono::milliseconds(kAutoPinSampleMs));
    const auto after = os::read_cpu_times(roots);
    const auto best = os::least_busy_cpu(before, after, candidates);
    if (!best)
        return std::string("--pin=auto: cannot read per-CPU load from ") + roots.proc +
               "/stat; name the CPU instead: --pin=CPU";
    how = fmt::format("--pin=auto: the least busy of {} over {} ms, {:.0f}% busy",
                      format_cpu_list(candidates), kAutoPinSampleMs,
                      100 * os::busy_share(before, after, *best));
    return *best;
}

}  // namespace

std::variant<Placement, std::string> apply_placement(const PlacementRequest& request,
                                                     const os::SystemRoots& roots) {
    Placement p;
    p.request = request;
    p.allowed = os::thread_affinity();
    p.cpus = p.allowed;
    if (!request.any()) return p;
    if (p.allowed.empty())
        return std::string(request.numa_node ? "--numa-node" : "--pin") +
               ": this OS does not say which CPUs the process may use, so it cannot be pinned; "
               "run without it";

    std::vector<unsigned> candidates = p.allowed;
    if (request.numa_node) {
        const unsigned node = *request.numa_node;
        const auto nodes = os::read_numa_nodes(roots.sys);
        const auto it = std::find_if(nodes.begin(), nodes.end(),
                                     [&](const os::NumaNode& n) { return n.id == node; });
        if (it == nodes.end()) {
            std::vector<unsigned> ids;
            for (const auto& n : nodes) ids.push_back(n.id);
            const std::string has = nodes.empty()     ? std::string("no NUMA nodes")
                                    : ids.size() == 1 ? "only node " + format_cpu_list(ids)
                                                      : "nodes " + format_cpu_list(ids);
            return fmt::format(
                "--numa-node={}: no such NUMA node (this machine has {}); pick one of them", node,
                has);
        }
        candidates = intersect(p.allowed, it->cpus);
        if (candidates.empty())
            return fmt::format(
                "--numa-node={}: none of the node's CPUs ({}) is one this process may use ({}); "
                "pick a node whose CPUs it may use",
                node, list_or_none(it->cpus), format_cpu_list(p.allowed));
    }
    if (request.pin == PlacementRequest::Pin::cpu) {
        if (!contains(candidates, request.cpu)) {
            if (request.numa_node && contains(p.allowed, request.cpu))
                return fmt::format(
                    "--pin={}: CPU {} is not on NUMA node {} (its CPUs here: {}); pin one of them",
                    request.cpu, request.cpu, *request.numa_node, format_cpu_list(candidates));
            return fmt::format(
                "--pin={}: CPU {} is not one this process may use (allowed: {}); pick one of them",
                request.cpu, request.cpu, format_cpu_list(p.allowed));
        }
        p.pinned = request.cpu;
        p.chosen_by = fmt::format("--pin={}", request.cpu);
    } else if (request.pin == PlacementRequest::Pin::automatic) {
        auto chosen = least_busy(candidates, roots, p.chosen_by);
        if (auto* problem = std::get_if<std::string>(&chosen)) return *problem;
        p.pinned = std::get<unsigned>(chosen);
    }
    const std::vector<unsigned> target = p.pinned ? std::vector<unsigned>{*p.pinned} : candidates;
    if (const int error = os::set_thread_affinity(target); error != 0)
        return fmt::format("{}: the kernel refused CPU affinity {}: {}; run without it",
                           p.pinned ? "--pin" : "--numa-node", format_cpu_list(target),
                           os::describe_errno(error));
    p.cpus = os::thread_affinity();
    if (request.numa_node) {
        if (const int error = os::bind_memory_to_nodes({*request.numa_node}); error != 0) {
            os::set_thread_affinity(p.allowed);  // nothing stays applied
            return fmt::format(
                "--numa-node={}: the kernel refused to bind memory to the node "
                "(set_mempolicy: {}); run without it",
                *request.numa_node, os::describe_errno(error));
        }
        p.memory_bound = true;
    }
    return p;
}

std::string placement_line(const Placement& p) {
    std::string line = p.pinned
                           ? fmt::format("placement: pinned to CPU {} ({})", *p.pinned, p.chosen_by)
                           : fmt::format("placement: not pinned (CPUs {})", list_or_none(p.cpus));
    if (p.request.numa_node)
        line += fmt::format(" · NUMA node {} (CPUs {}, memory bound)", *p.request.numa_node,
                            list_or_none(p.cpus));
    return line;
}

Json placement_json(const Placement& p) {
    Json j = Json::object();
    const char* pin = p.request.pin == PlacementRequest::Pin::cpu         ? "cpu"
                      : p.request.pin == PlacementRequest::Pin::automatic ? "auto"
                                                                          : "none";
    j["pin"] = pin;
    j["pinnedCpu"] = optional_json(p.pinned);
    j["chosenBy"] = p.chosen_by.empty() ? Json() : Json(p.chosen_by);
    j["allowedCpus"] = number_list_json(p.allowed);
    j["cpus"] = number_list_json(p.cpus);
    j["numaNode"] = optional_json(p.request.numa_node);
    j["memoryBound"] = p.memory_bound;
    return j;
}

}  // namespace glint::engine
