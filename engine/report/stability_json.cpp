#include "engine/report/stability_json.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "engine/model/json_limits.hpp"
#include "engine/model/json_values.hpp"

namespace glint::engine {
namespace {

Json optional_number(const std::optional<double>& value) {
    return value ? number_or_null(*value) : Json();
}

Json share(const std::optional<double>& part, const std::optional<double>& wall) {
    return part && wall && *wall > 0 ? number_or_null(*part / *wall) : Json();
}

Json time_lost_json(const TimeLost& t) {
    Json j = Json::object();
    j["wallNs"] = optional_number(t.wall_ns);
    j["stealNs"] = optional_number(t.steal_ns);
    j["stealShare"] = share(t.steal_ns, t.wall_ns);
    j["stealCpu"] = t.steal_cpu ? Json(*t.steal_cpu) : Json();  // null: the mean of every CPU
    j["stealTickNs"] = t.steal_tick_ns > 0 ? Json(t.steal_tick_ns) : Json();
    if (!t.steal_unknown.empty()) j["stealUnknown"] = t.steal_unknown;
    j["runDelayNs"] = optional_number(t.run_delay_ns);
    j["runDelayShare"] = share(t.run_delay_ns, t.wall_ns);
    if (!t.run_delay_unknown.empty()) j["runDelayUnknown"] = t.run_delay_unknown;
    return j;
}

std::optional<double> number_of(const Json& j, const char* key) {
    const Json* v = j.find(key);
    return v && v->is_number() ? std::optional<double>(v->as_number()) : std::nullopt;
}

TimeLost read_time_lost(const Json& j) {
    TimeLost t;
    t.wall_ns = number_of(j, "wallNs");
    t.steal_ns = number_of(j, "stealNs");
    if (const auto cpu = number_of(j, "stealCpu")) t.steal_cpu = json_integer<int>(*cpu);
    t.steal_tick_ns = number_of(j, "stealTickNs").value_or(0);
    if (const Json* why = j.find("stealUnknown"); why && why->is_string())
        t.steal_unknown = why->as_string();
    t.run_delay_ns = number_of(j, "runDelayNs");
    if (const Json* why = j.find("runDelayUnknown"); why && why->is_string())
        t.run_delay_unknown = why->as_string();
    return t;
}

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
    if (s.time_lost.wall_ns) out["timeLost"] = time_lost_json(s.time_lost);
    Json reasons = Json::array();
    for (const auto& r : s.unstable) reasons.push_back(r);
    out["unstable"] = std::move(reasons);
}

bool is_stability_member(std::string_view key) {
    static constexpr std::string_view kMembers[] = {
        "cpuWallRatio", "samplesCpuNs", "cpu", "migrations", "preemptions", "unstable", "timeLost"};
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
            for (const Json& c : list->as_array())
                t.sample_cpu_ns.push_back(c.is_number() ? c.as_number() : NAN);
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
    if (const Json* lost = json.find("timeLost"); lost && lost->is_object())
        s.time_lost = read_time_lost(*lost);
    row.stability = std::move(s);
}

}  // namespace glint::engine
