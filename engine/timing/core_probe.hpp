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

// What one probe says against the fastest of its set: the core's full speed, a slowed core
// (above kSlowCoreFactor x fastest), or nothing (above kInterruptedProbeFactor x fastest: it lost
// the CPU to an interrupt or another task).
enum class ProbeReading { full_speed, slowed, interrupted };
ProbeReading read_probe(double probe_ns, double fastest_ns);

// Pure: for probes[0..n] around n samples (probes[i] before sample i, probes[i + 1] after it),
// whether each sample is slow: either probe reads slowed against the fastest probe (an
// interrupted one is no evidence). All false when probes.size() != n + 1.
std::vector<bool> slow_core_samples(std::span<const double> probes, std::size_t n);

// Pure: the speed the core ran at through a pass, the median of its probes that did not lose
// the CPU (NaN: none). Unlike the fastest probe, it reads slow when most of the pass ran slowed.
double pass_core_step(std::span<const double> probes);

}  // namespace glint::engine
