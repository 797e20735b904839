// tests/support/rdpmc_rig.hpp: shared pieces of the rdpmc read-path tests on the emulated x86 PMU
// behind the fake perf kernel (support/fake_perf_kernel.hpp), for tests tagged _linux_x86_64.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tiers/perf/perf_tier.hpp"
#include "support/fake_perf_kernel.hpp"
#include "support/stub_rig.hpp"
#include "support/workloads.hpp"

namespace glint::test {

// The default hardware group on the rig: cycles, instructions, branches, branch-misses,
// cache-references, cache-misses (hardware counters 0..5) and page-faults (software), opened
// first, so their emulated ids are 0..6 in that order.
struct TierRig {
    static constexpr int kCycles = 0;
    static constexpr int kInstructions = 1;
    static constexpr int kPageFaults = 6;

    EmulatedPmu pmu{48};
    FakePerfKernel kernel{pmu};

    TierRig() {
        using os::Event;
        auto at = [](Event e) { return static_cast<std::size_t>(e); };
        kernel.per_iteration[at(Event::cycles)] = 20;
        kernel.per_iteration[at(Event::instructions)] = 10;
        kernel.per_iteration[at(Event::branches)] = 3;
        kernel.per_iteration[at(Event::branch_misses)] = 1;
        kernel.per_iteration[at(Event::cache_references)] = 4;
        kernel.per_iteration[at(Event::cache_misses)] = 1;
        kernel.per_iteration[at(Event::page_faults)] = 1;
        // The syscall path's apparatus: what each ENABLE/DISABLE ioctl adds inside the window.
        kernel.syscall_cost[at(Event::cycles)] = 500;
        kernel.syscall_cost[at(Event::instructions)] = 300;
        // The rdpmc path's apparatus: what each emulated rdpmc "retires".
        pmu.set_read_cost(kCycles, 3);
        pmu.set_read_cost(kInstructions, 2);
    }
};

// rdpmc read counts of an empty bracket over the six hardware slots: slot i sees
// 2 * (6 - i) - 1 reads, so cycles (slot 0) 11 x 3 and instructions (slot 1) 9 x 2.
inline constexpr double kRdpmcBracketCycles = 33;
inline constexpr double kRdpmcBracketInstructions = 18;
// ENABLE + DISABLE.
inline constexpr double kSyscallBracketCycles = 1000;
inline constexpr double kSyscallBracketInstructions = 600;

// One iteration of simulated work.
struct Work {
    FakePerfKernel* kernel;
    void operator()() const { kernel->work(1); }
};

inline std::unique_ptr<engine::CountingTier> rig_tier() {
    engine::perf::PerfTierConfig config;
    config.pmu_root = "/nonexistent";
    config.spin = std::chrono::microseconds(50);
    config.calibration_brackets = 9;  // emulated rdpmc traps cost ~1.5 us each
    return engine::perf::make_perf_tier(config);
}

inline engine::TierRequest perf_options(engine::PerfRead read = engine::PerfRead::automatic) {
    engine::TierRequest r;
    r.perf.asked = true;
    r.perf.read = read;
    return r;
}

inline const engine::Status* find_status(const std::vector<engine::Status>& statuses,
                                         std::string_view capability) {
    for (const auto& s : statuses)
        if (s.capability == capability) return &s;
    return nullptr;
}

inline const catalog::MetricCell* find_cell(const engine::PassResult& r, std::string_view name) {
    for (const auto& c : r.cells)
        if (c.name == name) return &c;
    return nullptr;
}

inline bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

inline bool any_line(const std::vector<std::string>& lines, std::string_view part) {
    for (const auto& l : lines)
        if (contains(l, part)) return true;
    return false;
}

}  // namespace glint::test
