// engine/tiers/tier0/tier0_math.hpp: the arithmetic of a tier-0 pass, as pure functions.
//
// A bracket is two process snapshots around a body. Its delta removes the first snapshot's
// own /proc/self/io reads exactly (syscr, rchar); what else the apparatus perturbs is the
// bracket cost, the per-field median of empty brackets, subtracted per bracket and clamped
// at 0. A field absent from either snapshot is absent (nan), never 0.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "os/process_counters.hpp"

namespace glint::engine::tier0 {

using os::kProcessCounters;
using os::ProcessCounter;

struct Tier0Delta {
    std::array<double, kProcessCounters> values{};
    std::array<bool, kProcessCounters> present{};
};

// after - before, with before's own reads removed from syscr and rchar. A field is present
// when both snapshots have it and it did not go backwards.
Tier0Delta snapshot_delta(const os::ProcessSnapshot& before, const os::ProcessSnapshot& after);

// Sums deltas field by field; a field absent from any of them is absent from the sum.
struct Tier0Totals {
    Tier0Delta sum;
    std::uint64_t brackets = 0;
    void add(const Tier0Delta& delta);
};

// The per-field median of empty-bracket deltas; absent where any of them lacks the field.
// No deltas: every field absent.
Tier0Delta median_cost(const std::vector<Tier0Delta>& empty_brackets);

// (sum - brackets * cost) / iterations per field, clamped at 0; nan where the sum or the cost
// lacks the field, or iterations == 0.
std::array<double, kProcessCounters> per_iteration(const Tier0Totals& totals,
                                                   std::uint64_t iterations,
                                                   const Tier0Delta& cost);

// The page-cache hit rate in percent points (97.5 means 97.5 %): the share of bytes read
// through the syscall layer that did not come from the block device, 100 * (1 - read_bytes /
// rchar), clamped to [0, 100] (readahead can fetch more than was read). nan when either is nan
// or rchar < 1 byte (nothing read: no rate).
double cache_hit_percent(double rchar, double read_bytes);

}  // namespace glint::engine::tier0
