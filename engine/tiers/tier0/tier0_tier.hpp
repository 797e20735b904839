// engine/tiers/tier0/tier0_tier.hpp: tier 0, the unprivileged I/O-bound signals.
//
// Opt-in columns per iteration (the pass runs only when --metrics selects one): syscr, syscw,
// rchar, wchar, rd-bytes, wr-bytes (/proc/self/io), minflt, majflt, vol-cs, invol-cs
// (getrusage), cache-hit (100 * (1 - rd-bytes / rchar)). Two snapshots bracket the counting
// pass; the apparatus is subtracted, clamped at 0. Process-wide: other threads' activity counts
// (disclosed). A field the kernel does not provide renders "—" with the reason.
// Rationale and details: docs/rationale.md, "engine/tiers/tier0/tier0_tier.hpp".
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/tiers/tier.hpp"
#include "os/process_counters.hpp"

namespace glint::engine {

namespace tier0 {

inline constexpr std::size_t kCalibrationBrackets = 9;

// Where the tier reads its snapshots (tests substitute a scripted source).
using SnapshotSource = std::function<os::ProcessSnapshot()>;

std::unique_ptr<CountingTier> make_tier0(SnapshotSource source);

}  // namespace tier0

std::unique_ptr<CountingTier> make_tier0_tier();

}  // namespace glint::engine
