// engine/tiers/perf/perf_tier.hpp: the hardware-counter tier (--perf), behind engine::Tier.
//
// open(): one process-wide counting group chosen by open_counting_group (hardware, else the
// software group when no PMU exists, else unavailable with the reason), a read path chosen by
// --perf-read, and that path's bracket self-cost measured (median of empty brackets: header,
// meta; under --perf-read=compare the syscall path's too, over the same group, never counting). count(): run_pass (pass_runner.hpp) — RESET once, brackets of plan.batch iterations
// (per-call: one call per bracket, after() outside the window) with empty brackets interleaved
// — then per-iteration values with the mean empty bracket subtracted, scaled and marked
// estimated when the pass was multiplexed, nan when not measured or lost in the noise.
// The runner sizes passes with plan_pass() (pass_math.hpp) and stores plan.iterations as the
// row's countIterations.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "engine/tiers/perf/read_path.hpp"
#include "engine/tiers/tier.hpp"
#include "os/perf_probes.hpp"

namespace glint::engine::perf {

// Knobs for tests; production uses the defaults.
struct PerfTierConfig {
    std::string pmu_root = os::kPmuSysfsRoot;
    std::chrono::microseconds spin{2000};  // calibration handshake
    std::size_t calibration_brackets = kCalibrationBrackets;
};

std::unique_ptr<Tier> make_perf_tier(PerfTierConfig config);

}  // namespace glint::engine::perf

namespace glint::engine {

// The tier the runner registers.
std::unique_ptr<Tier> make_perf_tier();

}  // namespace glint::engine
