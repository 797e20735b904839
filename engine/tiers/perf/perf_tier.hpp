// engine/tiers/perf/perf_tier.hpp: the hardware-counter tier (--perf), a counting tier
// (engine::CountingTier).
//
// open(): the counting group open_counting_group chooses, the read path --perf-read selects and
// each path's calibrated bracket self-cost. count(): one pass of brackets (pass_runner.hpp) with
// empty brackets interleaved; per-iteration values with the mean empty bracket subtracted,
// scaled and marked estimated when multiplexed, nan when not measured or lost in the noise.
// Compare mode adds a second pass with the other path (compare_metrics.hpp).
// Rationale and details: docs/rationale.md, "engine/tiers/perf/perf_tier.hpp".
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
    counting::UserPathOffer offer =
        os::offer_user_read_path;  // the arch's user-space path (tests: a fake)
};

std::unique_ptr<CountingTier> make_perf_tier(PerfTierConfig config);

}  // namespace glint::engine::perf

namespace glint::engine {

// The tier the runner registers.
std::unique_ptr<CountingTier> make_perf_tier();

}  // namespace glint::engine
