// engine/stability/case_watch.hpp: what happens to the measuring thread while a case is timed:
// the CPU it starts and ends on, its cpu-migrations (a software perf event: it needs no PMU)
// and its involuntary context switches.
//
// The watcher opens its cpu-migrations counter once, on the thread that constructs it (the
// runner's: cases run there), counting kernel and user time (a migration happens in the
// kernel); the constructor sleeps once (50 µs) so a migration made before it opened, which the
// kernel counts only when the thread is next scheduled in, is not charged to the first case.
// Where the counter cannot open (no perf_event, a paranoid kernel) migrations are
// unknown and only a different CPU at the end than at the start tells a migration; why is in
// migrations_unavailable(). begin() and end() read outside any timed window.
#pragma once

#include <cstdint>
#include <string>

#include "engine/model/stability.hpp"
#include "os/perf_events.hpp"
#include "os/thread_usage.hpp"

namespace glint::engine {

class CaseWatcher {
public:
    CaseWatcher();
    CaseWatcher(const CaseWatcher&) = delete;
    CaseWatcher& operator=(const CaseWatcher&) = delete;

    void begin();
    // The observations since begin() (unstable reasons not filled in).
    CaseStability end();

    bool counts_migrations() const { return group_.is_open(); }
    const std::string& migrations_unavailable() const { return why_; }

private:
    bool read_migrations(std::uint64_t& out) const;

    os::PerfGroup group_;
    std::string why_;
    int start_cpu_ = -1;
    bool start_migrations_ok_ = false;
    std::uint64_t start_migrations_ = 0;
    os::ThreadSwitches start_switches_;
};

}  // namespace glint::engine
