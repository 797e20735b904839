// os/time_lost.hpp: time the measuring thread lost without running, which its CPU clock cannot
// see: the hypervisor's steal (/proc/stat's steal column: USER_HZ ticks per CPU and in all) and
// the thread's run delay (/proc/thread-self/schedstat's second field: ns it spent runnable on a
// runqueue, waiting). Read around a case, never inside a timed window.
//
// Linux: os/linux/time_lost.cpp, under SystemRoots (tests: fake trees). Other systems: not ok,
// with the reason. A reading that is not ok carries why; its value is never a stand-in 0.
// The text parsers are portable (os/time_lost.cpp). Rationale: docs/time-lost.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "os/environment.hpp"

namespace glint::os {

struct StealReading {
    bool ok = false;
    std::string why;           // why not ok
    std::int64_t tick_ns = 0;  // one unit of the steal column (USER_HZ: 10 ms at 100 Hz)
    std::uint64_t all = 0;     // the aggregate "cpu" line: steal summed over every CPU
    std::vector<std::pair<unsigned, std::uint64_t>> per_cpu;  // the "cpuN" lines
    // Steal of `cpu` in ticks; nullopt when its line is missing.
    std::optional<std::uint64_t> of_cpu(unsigned cpu) const;
};

struct RunDelayReading {
    bool ok = false;
    std::string why;       // why not ok
    std::uint64_t ns = 0;  // run delay so far (sched_info.run_delay)
};

// The steal column of a /proc/stat text (tick_ns left 0). Not ok when the aggregate line is
// missing or has no steal column (kernels before 2.6.11), or a number is malformed.
StealReading parse_proc_stat_steal(std::string_view text);
// A schedstat text: "<on-cpu ns> <run delay ns> <timeslices>". Not ok when malformed.
RunDelayReading parse_schedstat(std::string_view text);

StealReading read_steal(const SystemRoots& roots);
// The calling thread's run delay.
RunDelayReading read_run_delay(const SystemRoots& roots);

}  // namespace glint::os
