// engine/tiers/perf/perf_tier.hpp: the hardware-counter tier (--perf), a counting tier (engine::CountingTier).
//
// open(): one process-wide counting group chosen by open_counting_group (hardware, else the
// software group when no PMU exists, else unavailable with the reason; opened asking for user
// access unless --perf-read=syscall, which arm64 needs per event), a read path chosen by
// --perf-read (select_read_path: the arch's user-space path or syscall; compare mode keeps both)
// and each path's bracket self-cost measured (calibrate_path: counts, cycles, ns; header, meta).
// count(): run_pass (pass_runner.hpp) — RESET once, brackets of plan.batch iterations
// (per-call: one call per bracket, after() outside the window) with empty brackets interleaved
// — then per-iteration values with the mean empty bracket subtracted, scaled and marked
// estimated when the pass was multiplexed, nan when not measured or lost in the noise.
// Compare mode runs a second pass per case with the other path and adds the compare columns
// (compare_metrics.hpp).
// The runner sizes passes with plan_pass() (pass_math.hpp) and stores plan.iterations as the
// row's countIterations.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "engine/counting/read_path.hpp"
#include "engine/tiers/tier.hpp"
#include "os/perf_probes.hpp"

namespace glint::engine::perf {

// Knobs for tests; production uses the defaults.
struct PerfTierConfig {
    std::string pmu_root = os::kPmuSysfsRoot;
    std::chrono::microseconds spin{2000};  // calibration handshake
    std::size_t calibration_brackets = counting::kCalibrationBrackets;
    counting::UserPathOffer offer = os::offer_user_read_path;  // the arch's user-space path (tests: a fake)
};

std::unique_ptr<CountingTier> make_perf_tier(PerfTierConfig config);

}  // namespace glint::engine::perf

namespace glint::engine {

// The tier the runner registers.
std::unique_ptr<CountingTier> make_perf_tier();

}  // namespace glint::engine
