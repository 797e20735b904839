// engine/model/stability.hpp: what the runner saw of a case's timing pass besides its times
// (engine/stability/ fills it), and the verdict: the reasons the row is marked unstable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace glint::engine {

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
};

}  // namespace glint::engine
