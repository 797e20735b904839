// engine/stability/remedies.hpp: what helps the unstable rows of a run, leaving out what the run
// already did. Pure functions.
//
// Noise (cpu-time, disturbed, split, spread, migrated, preempted): --pin and a quieter machine;
// pinned already: an isolated CPU (isolcpus) and a quieter machine; pinned to an isolated CPU:
// a quieter machine. run-delay: another task on the CPU: --pin to a quiet one, or stop it
// (pinned: stop it, or isolate the CPU). steal: a dedicated or quiet VM. timer-resolution:
// samples of --bench-min-time's length: a longer --bench-min-time; shorter ones (pinned
// iterations): more iterations per sample (glint::iterations).
#pragma once

#include <string>
#include <vector>

#include "engine/model/row.hpp"
#include "os/environment.hpp"

namespace glint::engine {

// What the run already did about noise.
struct RemedyContext {
    bool pinned = false;        // the run kept one CPU (--pin, or one CPU allowed at all)
    bool cpu_isolated = false;  // ...and the kernel keeps other tasks off it (isolcpus)
    double min_time_ms = 5;     // --bench-min-time
};

// The context of a run confined to `facts.cpus` (null: unknown, nothing done).
RemedyContext remedy_context(const os::EnvironmentFacts* facts, double min_time_ms);

// "try --pin, a quieter machine; run-delay: ...": the remedies for the reasons of `rows`,
// "; "-separated; "" when none applies.
std::string unstable_remedies(const std::vector<Row>& rows, const RemedyContext& done);

}  // namespace glint::engine
