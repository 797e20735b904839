// engine/tiers/request.hpp: what a run asks of its tiers, resolved once from the command line
// (engine/cli/options.hpp: tier_request()) and handed to each tier's wanted() and open(). Tiers
// never see the flag struct or the runner: everything a tier may depend on is a field here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/counting/perf_read.hpp"

namespace glint::engine {

struct PerfRequest {
    bool asked = false;    // --perf, --perf-scaled, --perf-inherit or --perf-read
    bool scaled = false;   // --perf-scaled: keep the full group when multiplexed
    bool inherit = false;  // --perf-inherit: count threads created later (raw:/pfm: groups too)
    PerfRead read = PerfRead::automatic;
};

struct SyscallRequest {
    bool total = false;              // --syscalls: the "syscalls" column
    std::vector<std::string> names;  // --syscalls=NAME,...: one sc:NAME column each
};

struct PerIterationRequest {
    bool asked = false;          // --per-iteration (or --histogram)
    std::string histogram_glob;  // --histogram=GLOB: cases whose distributions are printed
};

// --profile: a sampling pass per case after its counting passes (engine/tiers/profile/).
struct ProfileRequest {
    bool asked = false;            // --profile[=HZ] (or another --profile-* flag)
    std::uint64_t hz = 10000;      // samples per second of CPU time the pass aims at
    std::uint64_t samples = 2000;  // --profile-samples=N: the pass ends once it has these
    double time_ms = 1000;         // --profile-time=MS: ... or after this much wall time
    std::string folded_path;       // --profile-folded=FILE: folded stacks ("" none)
};

// --simulate: the run re-executed under Callgrind, counted on its simulated CPU
// (engine/tiers/simulated/).
struct SimulateRequest {
    bool asked = false;
};

// Sizing of the counting passes (engine/tiers/pass_plan.hpp); unset: from the timing pass.
struct PassSizing {
    std::optional<std::uint64_t> iterations;  // --perf-iters
    std::optional<std::uint64_t> batch;       // --perf-batch
};

struct TierRequest {
    // The --metrics entries as given: catalog names, *-globs, "all", and the raw:/pfm:/sc:
    // selectors that open events. Empty: each opened tier shows its default columns.
    std::vector<std::string> metrics;
    // --list-metrics: every tier opens, so the listing can say what this host can count.
    bool every_tier = false;
    PerfRequest perf;
    SyscallRequest syscalls;
    PerIterationRequest per_iteration;
    ProfileRequest profile;
    SimulateRequest simulate;
    PassSizing sizing;
};

}  // namespace glint::engine
