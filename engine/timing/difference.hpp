// engine/timing/difference.hpp: the difference method's samples (docs/asm.md). A sample is
// run's window minus reference's; where the batch has a unit pair (Batch::unit_run), the unit's
// difference is timed right after it by the same method, so each sample is also read in units
// of the unit instruction (add-cycles) measured under the same core speed. The unit's longer
// window is the sample's core-speed probe: a sample whose probe reads over kSlowCoreFactor
// above the fastest of its pass ran on a slowed core (core_probe.hpp's rule).
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include <glint/bench.hpp>

namespace glint::engine {

// A difference's samples: a pair (both windows together) takes min_time like any sample, this
// many times as many of them, so under contention the clean-sample headline has many to keep.
inline constexpr std::uint64_t kDifferenceSampleFactor = 8;

// The clock of the difference's windows, ns: empty, now_ns() (tests substitute an emulated one).
using PairClock = std::function<std::int64_t()>;

struct DifferenceSample {
    double wall = 0;        // run's window minus reference's
    double whole = 0;       // every window of the sample together (what its CPU reads bound)
    double unit_ns = NAN;   // the unit pair's difference per unit instruction (NaN: no unit)
    double probe_ns = NAN;  // the unit's longer window (NaN: no unit)
};

// One sample: reference(n), run(n), then unit_reference(unit_n), unit_run(unit_n) (no unit
// where unit_n is 0 or the batch has none), each window read on `clock`.
DifferenceSample time_difference(const glint::detail::Batch& batch, std::uint64_t n,
                                 std::uint64_t unit_n, const PairClock& clock = {});

// Calls of the unit pair per sample, doubled as the row's own until its two windows take
// min_time_ns (0: the batch has no unit).
std::uint64_t unit_calls(const glint::detail::Batch& batch, double min_time_ns,
                         const PairClock& clock = {});

// The samples whose probe reads slowed against the fastest of `probe_ns` (an interrupted one,
// over kInterruptedProbeFactor above it, is no evidence). Empty in, empty out.
std::vector<bool> slow_unit_samples(const std::vector<double>& probe_ns);

}  // namespace glint::engine
