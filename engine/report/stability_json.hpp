// engine/report/stability_json.hpp: a measured row's CPU-time and stability fields in the
// --bench-json document (rows[]):
//   cpuWallRatio   thread CPU time / wall time over the samples (null: no thread clock)
//   samplesCpuNs   each sample's thread CPU time per iteration, beside samplesNs (clamped to
//                  its wall time; absent when none was read; thinned to quantiles with it)
//   cpu            the CPU the timing pass ran on; a list [start, end] when it changed; null
//                  when unknown
//   migrations     cpu-migrations during the timing pass (null: not countable here)
//   preemptions    involuntary context switches during the timing pass (null: unknown)
//   timeLost       steal and run delay during the timing pass (fields: docs/time-lost.md)
//   unstable       the reasons the row is marked unstable ([] when stable); error rows: none
#pragma once

#include <string_view>

#include "engine/model/json.hpp"
#include "engine/model/row.hpp"

namespace glint::engine {

void add_stability_json(Json& out, const Row& row);

// The members add_stability_json writes (a row read back must not keep them as extra fields).
bool is_stability_member(std::string_view key);

// Reads those members back into `row` (rows that crossed a process boundary: --isolate):
// samplesCpuNs, the CPU/wall ratio (as cpu_ns = ratio, wall_ns = 1: the ratio is what JSON
// keeps) and, when `unstable` is present, the CaseStability with its reasons and timeLost.
void read_stability_json(const Json& json, Row& row);

}  // namespace glint::engine
