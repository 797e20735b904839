#include "engine/placement/topology_json.hpp"

#include "engine/model/json_values.hpp"

namespace glint::engine {
Json topology_json(const os::Topology& t) {
    if (!t.known) return Json();
    Json j = Json::object();
    j["cpus"] = number_list_json(t.online_cpus);
    j["packages"] = t.packages;
    j["cores"] = t.cores;
    j["cpu"] = t.cpu;
    j["smtSiblings"] = number_list_json(t.smt_siblings);
    Json caches = Json::array();
    for (const auto& c : t.caches) {
        Json e = Json::object();
        e["level"] = c.level;
        e["type"] = c.type;
        e["sizeBytes"] = optional_json(c.size_bytes);
        e["lineBytes"] = optional_json(c.line_bytes);
        e["sharedCpus"] = number_list_json(c.shared_cpus);
        caches.push_back(std::move(e));
    }
    j["caches"] = std::move(caches);
    Json nodes = Json::array();
    for (const auto& n : t.nodes) {
        Json e = Json::object();
        e["id"] = n.id;
        e["cpus"] = number_list_json(n.cpus);
        e["memTotalBytes"] = optional_json(n.mem_total_bytes);
        e["memFreeBytes"] = optional_json(n.mem_free_bytes);
        nodes.push_back(std::move(e));
    }
    j["numaNodes"] = std::move(nodes);
    return j;
}

}  // namespace glint::engine
