// engine/environment/core_speed.hpp: how fast the measuring core runs, and whether that changed.
//
// A probe times short chunks of a dependent add chain (about 5 µs each) for a fixed span on the
// calling thread. On a machine whose core speed holds, every chunk reads alike. A chunk well
// above the fastest one ran on a slowed core: frequency scaling, a busy SMT sibling, or a host
// that takes the CPU in slices without booking steal. None of these is visible to the thread's
// CPU clock, so no row's ± includes them; between runs they move medians by as much. Chunks
// are read as one probe each (timing/core_probe.hpp, read_probe): slowed, or interrupted
// (counted apart, not as slow). The run probes at its start and its end (RunEnvironment)
// and warns when many chunks read slow. Rationale: docs/load.md, "Core speed".
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "engine/environment/checks.hpp"
#include "engine/model/json.hpp"
#include "engine/timing/core_probe.hpp"

namespace glint::engine {

inline constexpr double kSlowShareWarning = 0.10;  // a warning from this share of slow chunks
inline constexpr std::chrono::milliseconds kCoreSpeedProbeSpan{20};

// Nanoseconds per dependent step of each chunk, in time order; empty when nothing was timed.
std::vector<double> probe_core_speed(std::chrono::nanoseconds span = kCoreSpeedProbeSpan);

struct CoreSpeed {
    std::size_t chunks = 0;       // judged (not interrupted)
    std::size_t interrupted = 0;  // read as interrupted against the fastest
    double fastest_ns = 0;        // per step, the fastest chunk
    double median_ns = 0;         // per step, over the judged chunks
    double p90_ns = 0;            // per step, the 90th percentile of the judged chunks
    double slow_share = 0;        // of the judged chunks, the share read as slowed
};

// Pure: the judgement of chunks' ns per step (several probes' chunks may be joined). nullopt
// when no chunk was timed.
std::optional<CoreSpeed> judge_core_speed(std::span<const double> step_ns);

// The warning "core-speed" when at least kSlowShareWarning of the chunks read slow.
std::optional<EnvironmentWarning> check_core_speed(const CoreSpeed& speed);

// meta.environment.coreSpeed: the judgement of every chunk (start and end probes joined) and
// each probe's own; null where a probe timed nothing.
Json core_speed_json(const std::optional<CoreSpeed>& all, const std::optional<CoreSpeed>& start,
                     const std::optional<CoreSpeed>& end);

}  // namespace glint::engine
