// arch/x86_64/bracket_calibration.hpp: the arithmetic of bracket self-cost calibration, pure.
//
// A bracket over n iterations reads n * per_iteration + self_cost. Minimum of many: the minimum
// of empty brackets is the self-cost, (delta - cost) / n. N versus 2N: per_iteration =
// (d2n - dn) / n, self_cost = 2 dn - d2n. U versus 2U inline copies: per_copy =
// (d2u - du) / (trips * U).
// Promised: exact arithmetic; NaN (never 0) where a value cannot be computed. Not promised:
// non-negative results (a body cheaper than the calibration's spread can read slightly negative).
// Rationale and details: docs/rationale.md, "arch/x86_64/bracket_calibration.hpp".
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "arch/x86_64/bracket_stub.hpp"

namespace glint::arch::x86_64 {

inline constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

// Self-cost of a stub, per counter slot and for the TSC, from empty-body brackets.
struct BracketCost {
    std::vector<double> counts;  // per counter slot; NaN when there were no samples
    double tsc_ticks = kNoValue;
};

// The minimum of each counter slot and of the TSC over `empties` (records of a stub with
// `counters` counters and an empty body).
inline BracketCost min_cost(std::span<const BracketRecord> empties, std::size_t counters) {
    BracketCost cost;
    cost.counts.assign(counters, kNoValue);
    for (const BracketRecord& r : empties) {
        for (std::size_t i = 0; i < counters; ++i) {
            const double v = static_cast<double>(r.counts[i]);
            if (!(cost.counts[i] <= v)) cost.counts[i] = v;  // NaN compares false: first sample
        }
        const double t = static_cast<double>(r.tsc);
        if (!(cost.tsc_ticks <= t)) cost.tsc_ticks = t;
    }
    return cost;
}

// (delta - self_cost) / n; NaN when n is 0 or an input is NaN.
constexpr double per_iteration(double delta, double self_cost, std::uint64_t n) {
    if (n == 0) return kNoValue;
    return (delta - self_cost) / static_cast<double>(n);
}

struct Differenced {
    double per_iteration = kNoValue;
    double self_cost = kNoValue;
};

// N versus 2N: `delta_n` over n iterations, `delta_2n` over 2n.
constexpr Differenced difference(double delta_n, double delta_2n, std::uint64_t n) {
    if (n == 0) return {};
    return {(delta_2n - delta_n) / static_cast<double>(n), 2 * delta_n - delta_2n};
}

// U versus 2U copies of an inline body at `trips` loop trips: the value of one copy.
constexpr double per_copy(double delta_u, double delta_2u, std::uint64_t trips,
                          std::uint32_t unroll) {
    if (trips == 0 || unroll == 0) return kNoValue;
    return (delta_2u - delta_u) / (static_cast<double>(trips) * unroll);
}

// TSC ticks to nanoseconds at `tsc_hz`.
constexpr double ticks_to_ns(double ticks, double tsc_hz) {
    if (!(tsc_hz > 0)) return kNoValue;
    return ticks * 1e9 / tsc_hz;
}

// TSC ticks to nanoseconds with a perf mmap page's time_mult / time_shift (ns = t*mult >> shift).
constexpr double ticks_to_ns(double ticks, std::uint32_t mult, std::uint16_t shift) {
    if (mult == 0) return kNoValue;
    double scale = static_cast<double>(mult);
    for (std::uint16_t i = 0; i < shift; ++i) scale /= 2;
    return ticks * scale;
}

}  // namespace glint::arch::x86_64
