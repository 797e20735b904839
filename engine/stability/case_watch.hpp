// engine/stability/case_watch.hpp: what happens to the measuring thread while a case is timed:
// the CPU it starts and ends on, its cpu-migrations (a software perf event: it needs no PMU),
// its involuntary context switches and the time it lost without running (steal, run delay:
// os/time_lost.hpp, docs/time-lost.md).
//
// The watcher opens its cpu-migrations counter once, on the thread that constructs it (the
// runner's: cases run there), and sleeps once (50 µs) so a migration made before it opened is
// not charged to the first case. Where the counter cannot open, only a different CPU at the end
// than at the start tells a migration; why is in migrations_unavailable(). begin() and end()
// read outside any timed window. Details: docs/rationale.md, "engine/stability/case_watch.hpp".
#pragma once

#include <cstdint>
#include <string>

#include "engine/model/stability.hpp"
#include "os/perf_events.hpp"
#include "os/thread_usage.hpp"
#include "os/time_lost.hpp"

namespace glint::engine {

// The time lost between two pairs of readings `wall_ns` apart, for a thread `seen` on its CPUs:
// steal of the one CPU it stayed on (no migration counted), else the mean over every CPU.
TimeLost time_lost_between(const os::StealReading& steal_before,
                           const os::StealReading& steal_after,
                           const os::RunDelayReading& delay_before,
                           const os::RunDelayReading& delay_after, double wall_ns,
                           const CaseStability& seen);

class CaseWatcher {
  public:
    explicit CaseWatcher(os::SystemRoots roots = {});
    CaseWatcher(const CaseWatcher&) = delete;
    CaseWatcher& operator=(const CaseWatcher&) = delete;

    void begin();
    // The observations since begin() (unstable reasons not filled in).
    CaseStability end();

    bool counts_migrations() const { return group_.is_open(); }
    const std::string& migrations_unavailable() const { return why_; }
    // Whether steal and run delay could be read when the watcher started; "" when they could.
    const std::string& steal_unavailable() const { return steal_why_; }
    const std::string& run_delay_unavailable() const { return run_delay_why_; }
    std::int64_t steal_tick_ns() const { return steal_tick_ns_; }

  private:
    bool read_migrations(std::uint64_t& out) const;

    os::PerfGroup group_;
    std::string why_;
    int start_cpu_ = -1;
    bool start_migrations_ok_ = false;
    std::uint64_t start_migrations_ = 0;
    os::ThreadSwitches start_switches_;
    os::SystemRoots roots_;
    std::string steal_why_, run_delay_why_;
    std::int64_t steal_tick_ns_ = 0;
    os::StealReading start_steal_;
    os::RunDelayReading start_delay_;
    std::int64_t start_wall_ns_ = 0;
};

}  // namespace glint::engine
