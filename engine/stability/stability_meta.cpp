#include "engine/stability/stability_meta.hpp"

#include <cmath>

#include "engine/model/unstable_codes.hpp"
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
    j["thresholds"]["maxRunDelayShare"] = limits.max_run_delay_share;
    j["thresholds"]["maxStealShare"] = limits.max_steal_share;
    Json reasons = Json::object();
    for (const auto& code : unstable_reason_codes()) reasons[code] = describe_reason(code, limits);
    j["reasons"] = std::move(reasons);
    Json codes = Json::object();  // what the tables show for each reason
    for (const auto& reason : unstable_reason_codes())
        codes[reason] = std::string(unstable_code(reason));
    j["codes"] = std::move(codes);
    const double read = clock_properties().thread_cpu_read_ns;
    j["threadCpuReadNs"] = std::isfinite(read) ? Json(read) : Json();
    j["migrationsCounted"] = watcher.counts_migrations();
    if (!watcher.counts_migrations()) j["migrationsUnavailable"] = watcher.migrations_unavailable();
    // What the row's timeLost rests on (docs/time-lost.md): readable here, and the steal unit.
    j["stealRead"] = watcher.steal_unavailable().empty();
    if (!watcher.steal_unavailable().empty()) j["stealUnavailable"] = watcher.steal_unavailable();
    j["stealTickNs"] = watcher.steal_tick_ns() > 0 ? Json(watcher.steal_tick_ns()) : Json();
    j["runDelayRead"] = watcher.run_delay_unavailable().empty();
    if (!watcher.run_delay_unavailable().empty())
        j["runDelayUnavailable"] = watcher.run_delay_unavailable();
    return j;
}

}  // namespace glint::engine
