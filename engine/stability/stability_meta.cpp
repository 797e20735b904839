#include "engine/stability/stability_meta.hpp"

#include <cmath>

#include "engine/stability/verdict.hpp"
#include "engine/timing/clock.hpp"

namespace glint::engine {

Json stability_meta(const CaseWatcher& watcher) {
    const StabilityThresholds limits;
    Json j = Json::object();
    j["thresholds"]["minCpuWall"] = limits.min_cpu_wall;
    j["thresholds"]["maxSpread"] = limits.max_spread;
    j["thresholds"]["preemptedShare"] = limits.preempted_share;
    j["thresholds"]["minTimerSteps"] = limits.min_timer_steps;
    Json reasons = Json::object();
    for (const auto& code : unstable_reason_codes()) reasons[code] = describe_reason(code, limits);
    j["reasons"] = std::move(reasons);
    const double read = clock_properties().thread_cpu_read_ns;
    j["threadCpuReadNs"] = std::isfinite(read) ? Json(read) : Json();
    j["migrationsCounted"] = watcher.counts_migrations();
    if (!watcher.counts_migrations()) j["migrationsUnavailable"] = watcher.migrations_unavailable();
    return j;
}

}  // namespace glint::engine
