// engine/profile/sampling_choice.hpp: which sampling event this host can run, decided once.
//
// The cycles overflow interrupt at `hz` per second with the highest precise_ip the PMU
// advertises, where a hardware PMU exists; otherwise the cpu-clock timer every 1/hz s of CPU
// time. User mode only. The ring shrinks to 16 pages when the locked-memory limit refuses the
// default. Every choice is probed by opening (and closing) a sampler.
// Rationale and details: docs/rationale.md, "engine/profile/sampling_choice.hpp".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/status.hpp"
#include "os/perf_probes.hpp"
#include "os/sampling.hpp"

namespace glint::engine::profile {

inline constexpr std::size_t kRingPages = 128;  // 512 KiB with 4 KiB pages
inline constexpr std::size_t kSmallRingPages = 16;

struct SamplingPlan {
    bool ok = false;
    os::SamplerSpec spec;            // what opened (when ok)
    std::string how;                 // "cpu-clock timer every 100 µs of CPU time (10 kHz)"
    std::vector<std::string> notes;  // why not cycles; user-only; the ring shrunk
    std::string precise;             // how the IP is made precise, or why it is not
    bool precise_offered = false;    // precise_ip > 0 opened
    std::string reason, remedy;      // why nothing opened (when !ok)
};

// Probes in the order above. `pmu_root`: where the CPU PMU is looked up (tests: a fake).
SamplingPlan plan_sampling(std::uint64_t hz, const std::string& pmu_root = os::kPmuSysfsRoot);

// The capability statuses: overflow-sampling (what the profile samples with, or why nothing
// opens) and the precise half of precise-data-source.
Status overflow_sampling_status(const SamplingPlan& plan);
Status precise_data_source_status(const SamplingPlan& plan);

// "every 100 µs" / "every 10007 cycles" / "at ~10 kHz (kernel-adjusted period)".
std::string describe_rate(const os::SamplerSpec& spec);

}  // namespace glint::engine::profile
