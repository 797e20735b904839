// engine/profile/sampling_choice.hpp: which sampling event this host can run, decided once.
//
// In order: the cycles event's overflow interrupt at `hz` samples per second (the kernel
// adjusting the period), where a hardware PMU exists, with the highest precise_ip that opens
// up to what the PMU advertises in sysfs (caps/max_precise: PEBS/IBS reduce the skid of the
// sampled IP; 0 where the PMU advertises none: arm64's driver accepts any precise_ip without
// honouring it, so an open proves nothing);
// otherwise the software cpu-clock timer every 1/hz seconds of CPU time. Both sample user mode
// only: the pass enables and disables the sampler with a system call around every chunk (every
// call, for per-call cases), and kernel samples would be mostly those calls' own, not the
// case's (a timer's count still says how much of the sampled time was in the kernel: see
// CaseProfile::kernel_share). User-only sampling also opens under perf_event_paranoid=2
// without privilege. The ring shrinks to 16 pages when the locked-memory limit refuses the
// default one. Every choice is probed by opening (and closing) a sampler.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/status.hpp"
#include "os/perf_probes.hpp"
#include "os/sampling.hpp"

namespace glint::engine::profile {

inline constexpr std::size_t kRingPages = 128;       // 512 KiB with 4 KiB pages
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
