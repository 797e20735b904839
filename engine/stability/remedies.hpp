// engine/stability/remedies.hpp: what helps against an unstable row's reason, leaving out what
// the run already did. Pure functions; the legend (unstable_legend.hpp) prints one per code.
//
// Noise (cpu-time, disturbed, split, spread, migrated, preempted): --pin and a quieter machine;
// pinned already: an isolated CPU (isolcpus) and a quieter machine; pinned to an isolated CPU:
// a quieter machine. run-delay: another task on the CPU: --pin to a quiet one, or stop it
// (pinned: stop it, or isolate the CPU). steal: a dedicated or quiet VM. timer-resolution: a
// --bench-min-time near what the timer resolves: a longer one; else the short samples are
// pinned iterations' (glint::iterations): more iterations per sample.
#pragma once

#include <string>
#include <string_view>

#include "engine/timing/protocol.hpp"
#include "os/environment.hpp"

namespace glint::engine {

// What the run already did about noise.
struct RemedyContext {
    bool pinned = false;        // the run kept one CPU (--pin, or one CPU allowed at all)
    bool cpu_isolated = false;  // ...and the kernel keeps other tasks off it (isolcpus)
    double min_time_ms = kDefaultMinTimeNs / 1e6;  // --bench-min-time
    double timer_step_ns = 0;                      // the timing clock's step (0: unknown)
};

// The context of a run confined to `facts.cpus` (null: unknown, nothing done).
RemedyContext remedy_context(const os::EnvironmentFacts* facts, double min_time_ms,
                             double timer_step_ns);

// "try --pin, a quieter machine", "pinned already: ...": what helps against `reason` after what
// `done` did; a sample resolves from `min_timer_steps` timer steps. "" for a reason this build
// does not know.
std::string reason_remedy(std::string_view reason, const RemedyContext& done = {},
                          double min_timer_steps = 1000);

}  // namespace glint::engine
