#include "engine/report/stability_json.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "engine/model/json_limits.hpp"

namespace glint::engine {
namespace {

Json number_or_null(double value) { return std::isfinite(value) ? Json(value) : Json(); }

}  // namespace

void add_stability_json(Json& out, const Row& row) {
    if (row.is_error() || !row.timing) return;
    const TimingSummary& t = *row.timing;
    out["cpuWallRatio"] = number_or_null(t.cpu_wall_ratio());
    if (!t.sample_cpu_ns.empty()) {
        Json cpu = Json::array();
        for (double c : t.sample_cpu_ns) cpu.push_back(number_or_null(c));
        out["samplesCpuNs"] = std::move(cpu);
    }
    if (!row.stability) return;
    const CaseStability& s = *row.stability;
    if (s.cpus.empty()) {
        out["cpu"] = Json();
    } else if (s.cpus.size() == 1) {
        out["cpu"] = s.cpus.front();
    } else {
        Json list = Json::array();
        for (int c : s.cpus) list.push_back(c);
        out["cpu"] = std::move(list);
    }
    out["migrations"] = s.migrations ? Json(*s.migrations) : Json();
    out["preemptions"] = s.preemptions ? Json(*s.preemptions) : Json();
    Json reasons = Json::array();
    for (const auto& r : s.unstable) reasons.push_back(r);
    out["unstable"] = std::move(reasons);
}

bool is_stability_member(std::string_view key) {
    static constexpr std::string_view kMembers[] = {"cpuWallRatio", "samplesCpuNs", "cpu",
                                                    "migrations",   "preemptions",  "unstable"};
    return std::find(std::begin(kMembers), std::end(kMembers), key) != std::end(kMembers);
}

void read_stability_json(const Json& json, Row& row) {
    if (row.timing) {
        TimingSummary& t = *row.timing;
        if (const Json* r = json.find("cpuWallRatio"); r && r->is_number()) {
            t.cpu_ns = r->as_number();
            t.wall_ns = 1;
        }
        if (const Json* list = json.find("samplesCpuNs"); list && list->is_array())
            for (const Json& c : list->as_array()) t.sample_cpu_ns.push_back(c.is_number() ? c.as_number() : NAN);
    }
    const Json* unstable = json.find("unstable");
    if (!unstable || !unstable->is_array()) return;
    CaseStability s;
    for (const Json& reason : unstable->as_array())
        if (reason.is_string()) s.unstable.push_back(reason.as_string());
    if (const Json* cpu = json.find("cpu")) {
        if (cpu->is_number()) s.cpus.push_back(json_integer<int>(cpu->as_number()));
        if (cpu->is_array())
            for (const Json& c : cpu->as_array())
                if (c.is_number()) s.cpus.push_back(json_integer<int>(c.as_number()));
    }
    if (const Json* m = json.find("migrations"); m && m->is_number())
        s.migrations = json_integer<std::uint64_t>(m->as_number());
    if (const Json* p = json.find("preemptions"); p && p->is_number())
        s.preemptions = json_integer<std::uint64_t>(p->as_number());
    row.stability = std::move(s);
}

}  // namespace glint::engine
