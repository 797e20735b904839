#include "engine/report/stability_json.hpp"

#include <cmath>

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

}  // namespace glint::engine
