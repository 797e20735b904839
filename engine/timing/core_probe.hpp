// engine/timing/core_probe.hpp: a probe of the measuring core's speed, and the samples it
// finds on a slowed core.
//
// A probe times `steps` dependent adds (about 1 µs at the default) on the calling thread and
// returns nanoseconds per add. A core runs them alike unless it is slowed (frequency scaling,
// a busy SMT sibling, a hypervisor that takes the vCPU in slices and books no steal): then the
// thread's CPU clock still counts every nanosecond as running, and only a reference like this
// tells. Batched samples are probed before and after (protocol.cpp); a sample whose probes read
// over a factor above the fastest probe of its pass ran, at least in part, on a slowed core.
// Rationale: docs/load.md, "Core speed".
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace glint::engine {

inline constexpr std::uint64_t kProbeSteps = 4096;
inline constexpr double kSlowCoreFactor = 1.10;
inline constexpr double kInterruptedProbeFactor = 4.0;  // above: the probe lost the CPU

// Nanoseconds per dependent add over `steps` of them.
double probe_step_ns(std::uint64_t steps = kProbeSteps);

// Pure: for probes[0..n] around n samples (probes[i] before sample i, probes[i + 1] after it),
// whether each sample is slow: either probe above `factor` times the fastest probe, but not
// above kInterruptedProbeFactor times it (that probe lost the CPU: no evidence). All false
// when probes.size() != n + 1.
std::vector<bool> slow_core_samples(std::span<const double> probes, std::size_t n,
                                    double factor = kSlowCoreFactor);

}  // namespace glint::engine
