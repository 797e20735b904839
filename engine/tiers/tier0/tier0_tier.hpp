// engine/tiers/tier0/tier0_tier.hpp: tier 0, the unprivileged I/O-bound signals.
//
// Columns (all quantitative, per iteration, opt-in: none is a default column, and the pass
// runs only when --metrics selects one of them, by name, glob or "all"):
//   syscr, syscw          read-/write-family system calls        (/proc/self/io)
//   minflt, majflt        minor / major page faults              (getrusage RUSAGE_SELF)
//   vol-cs, invol-cs      voluntary (blocked) / involuntary (preempted) context switches
//   rchar, wchar          bytes through the syscall layer        (/proc/self/io)
//   rd-bytes, wr-bytes    bytes from / to the block device       (read_bytes, write_bytes)
//   cache-hit             page-cache hit rate in percent points: 100 * (1 - rd-bytes / rchar)
//
// The pass brackets the whole counting pass (per-call cases: each call, after() outside) with
// two snapshots. Each snapshot's own /proc/self/io reads are removed exactly; the rest of the
// apparatus (the median of 9 empty brackets at open) is subtracted, clamped at 0. Both
// sources are process-wide: another thread's activity during a pass is counted (disclosed).
// A field the kernel does not provide renders — with the reason.
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
