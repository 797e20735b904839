#include "engine/placement/topology_json.hpp"

namespace glint::engine {
namespace {

Json cpu_array(const std::vector<unsigned>& cpus) {
    Json a = Json::array();
    for (unsigned c : cpus) a.push_back(c);
    return a;
}

template <class T>
Json optional_json(const std::optional<T>& v) {
    return v ? Json(*v) : Json();
}

}  // namespace

Json topology_json(const os::Topology& t) {
    if (!t.known) return Json();
    Json j = Json::object();
    j["cpus"] = cpu_array(t.online_cpus);
    j["packages"] = t.packages;
    j["cores"] = t.cores;
    j["cpu"] = t.cpu;
    j["smtSiblings"] = cpu_array(t.smt_siblings);
    Json caches = Json::array();
    for (const auto& c : t.caches) {
        Json e = Json::object();
        e["level"] = c.level;
        e["type"] = c.type;
        e["sizeBytes"] = optional_json(c.size_bytes);
        e["lineBytes"] = optional_json(c.line_bytes);
        e["sharedCpus"] = cpu_array(c.shared_cpus);
        caches.push_back(std::move(e));
    }
    j["caches"] = std::move(caches);
    Json nodes = Json::array();
    for (const auto& n : t.nodes) {
        Json e = Json::object();
        e["id"] = n.id;
        e["cpus"] = cpu_array(n.cpus);
        e["memTotalBytes"] = optional_json(n.mem_total_bytes);
        e["memFreeBytes"] = optional_json(n.mem_free_bytes);
        nodes.push_back(std::move(e));
    }
    j["numaNodes"] = std::move(nodes);
    return j;
}

}  // namespace glint::engine
