// engine/timing/per_call.cpp: the per-call pass (protocol.hpp, time_per_call): one timed call a
// sample, the core probed between calls.
#include <algorithm>
#include <cmath>

#include "engine/timing/clock.hpp"
#include "engine/timing/core_probe.hpp"
#include "engine/timing/protocol.hpp"
#include "os/thread_usage.hpp"

namespace glint::engine {

TimingSummary time_per_call(glint::detail::PerCall& call, const std::function<void()>& after_one,
                            const TimingConfig& config) {
    const ClockProperties& clock = clock_properties();
    // The empty bracket of the clock in use, subtracted from every timed window.
    const double bracket_ns = clock.ticks_usable ? clock.tick_bracket_ns : clock.bracket_ns;
    std::vector<double> samples;
    double measured = 0;
    if (config.progress) config.progress();
    if (config.before_samples) config.before_samples();
    // The wall span is read just outside the CPU reads: the CPU span lies inside it.
    const std::int64_t wall_start = now_ns();
    const std::int64_t cpu_start = os::thread_cpu_ns();
    auto done = [&] {
        if (config.pinned) return samples.size() >= config.pinned;
        if (samples.size() < config.samples) return false;
        if (measured >= kPerCallTotalFactor * config.min_time_ns) return true;
        return static_cast<double>(now_ns() - wall_start) >= config.wall_budget_ns;
    };
    std::vector<double> cpu;     // each call's: the thread CPU clock read around its timed window
    std::vector<double> probes;  // the core's speed, between calls (core_probe.hpp)
    double next_probe = 0;       // the timed total at which the next probe runs
    while (!done()) {
        if (config.checkpoint) config.checkpoint();
        if (config.core_probe && measured >= next_probe) {
            probes.push_back(config.probe ? config.probe() : probe_step_ns());
            next_probe = measured + kPerCallProbeNs;
        }
        const std::int64_t call_cpu_start = os::thread_cpu_ns();
        const double window = time_window_ns(clock, clock.ticks_usable, [&] { call.timed(); });
        const std::int64_t call_cpu_stop = os::thread_cpu_ns();
        after_one();
        // The budget counts the window as run, so a call cheaper than the bracket still ends
        // sampling at min-time instead of the wall budget.
        measured += window;
        samples.push_back(std::max(0.0, window - bracket_ns));
        const bool read = call_cpu_start >= 0 && call_cpu_stop >= 0;
        cpu.push_back(
            read ? std::min(static_cast<double>(call_cpu_stop - call_cpu_start), samples.back())
                 : NAN);
    }
    const std::int64_t cpu_stop = os::thread_cpu_ns();
    const std::int64_t wall_stop = now_ns();
    TimingSummary summary = summarize_samples(std::move(samples), 1, true);
    summary.resolution_ns = bracket_ns;
    if (cpu_start >= 0 && cpu_stop >= 0) {
        summary.wall_ns = static_cast<double>(wall_stop - wall_start);
        summary.cpu_ns = run_cpu_ns(cpu_start, cpu_stop, summary.wall_ns, clock.thread_cpu_step_ns);
    }
    summary.sample_cpu_ns = std::move(cpu);
    summary.core_step_ns = pass_core_step(probes);
    apply_headline(summary, cpu_tolerance_per_read(),
                   clock.ticks_usable ? clock.ns_per_tick : clock.resolution_ns);
    return summary;
}

}  // namespace glint::engine
