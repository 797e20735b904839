// engine/stability/stability_meta.hpp: meta.stability, what the unstable marks rest on:
//   {thresholds: {minCpuWall, maxSpread, preemptedShare, minTimerSteps, maxRunDelayShare,
//    maxStealShare}, reasons: {reason: meaning}, codes: {reason: the tables' code for it},
//    threadCpuReadNs, migrationsCounted,
//    migrationsUnavailable?, stealRead, stealUnavailable?, stealTickNs, runDelayRead,
//    runDelayUnavailable?}
#pragma once

#include "engine/model/json.hpp"
#include "engine/stability/case_watch.hpp"

namespace glint::engine {

Json stability_meta(const CaseWatcher& watcher);

}  // namespace glint::engine
