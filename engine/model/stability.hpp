// engine/model/stability.hpp: what the runner saw of a case's timing pass besides its times
// (engine/stability/ fills it), and the verdict: the reasons the row is marked unstable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace glint::engine {

// Time the thread lost without running during the timing pass, which its CPU clock cannot see
// (engine/stability/case_watch.hpp; docs/time-lost.md). nullopt: not read, why in *_unknown.
struct TimeLost {
    std::optional<double> wall_ns;   // wall time between the watcher's two readings
    std::optional<double> steal_ns;  // the hypervisor's steal (whole USER_HZ ticks)
    std::optional<int> steal_cpu;    // the CPU it was read for; nullopt: mean of every CPU
    double steal_tick_ns = 0;        // the steal column's unit (10 ms at USER_HZ 100)
    std::string steal_unknown;
    std::optional<double> run_delay_ns;  // runnable on a runqueue, waiting (schedstat)
    std::string run_delay_unknown;
};

struct CaseStability {
    // The CPU the thread ran on when the timing pass began, then the one it ended on when that
    // differs; empty when the OS does not say.
    std::vector<int> cpus;
    // cpu-migrations of the thread during the timing pass (the software perf event); nullopt
    // when it could not be counted here.
    std::optional<std::uint64_t> migrations;
    // Involuntary context switches (preemptions) of the thread during the timing pass.
    std::optional<std::uint64_t> preemptions;
    // Why the row is unstable, in a fixed order (engine/stability/verdict.hpp); empty: stable.
    std::vector<std::string> unstable;
    TimeLost time_lost;
};

}  // namespace glint::engine
