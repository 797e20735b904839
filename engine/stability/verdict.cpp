#include "engine/stability/verdict.hpp"

#include <cmath>

#include <fmt/format.h>

namespace glint::engine {

std::vector<std::string> unstable_reasons(const TimingSummary& timing, const CaseStability& seen,
                                          double timer_step_ns, const StabilityThresholds& limits) {
    std::vector<std::string> reasons;
    const double ratio = timing.cpu_wall_ratio();
    // A headline taken from clean samples is not moved by the CPU time lost in the others.
    const bool robust = timing.estimator == "clean-median";
    if (std::isfinite(ratio) && ratio < limits.min_cpu_wall && !robust)
        reasons.emplace_back("cpu-time");
    if (timing.estimator == "all-median") reasons.emplace_back("disturbed");
    if (timing.split) reasons.emplace_back("split");
    if (timing.median_resolved() && timing.median_ns > 0 &&
        timing.mad_ns > limits.max_spread * timing.median_ns)
        reasons.emplace_back("spread");
    const bool moved = (seen.migrations && *seen.migrations > 0) || seen.cpus.size() > 1;
    if (moved) reasons.emplace_back("migrated");
    if (seen.preemptions && timing.samples > 0 &&
        static_cast<double>(*seen.preemptions) >=
            limits.preempted_share * static_cast<double>(timing.samples))
        reasons.emplace_back("preempted");
    const TimeLost& lost = seen.time_lost;
    if (lost.wall_ns && *lost.wall_ns > 0) {
        if (lost.run_delay_ns && *lost.run_delay_ns > limits.max_run_delay_share * *lost.wall_ns)
            reasons.emplace_back("run-delay");
        // Two readings of whole ticks differ by up to one tick more than the steal between
        // them: one tick is not evidence.
        if (lost.steal_ns &&
            *lost.steal_ns - lost.steal_tick_ns > limits.max_steal_share * *lost.wall_ns)
            reasons.emplace_back("steal");
    }
    if (!timing.per_call && timer_step_ns > 0 && timing.median_ns > 0 &&
        timing.median_ns * static_cast<double>(timing.iterations_per_sample) <
            limits.min_timer_steps * timer_step_ns)
        reasons.emplace_back("timer-resolution");
    return reasons;
}

const std::vector<std::string>& unstable_reason_codes() {
    static const std::vector<std::string> codes = {"cpu-time",  "disturbed", "split",
                                                   "spread",    "migrated",  "preempted",
                                                   "run-delay", "steal",     "timer-resolution"};
    return codes;
}

std::string describe_reason(std::string_view code, const StabilityThresholds& limits) {
    if (code == "cpu-time") return fmt::format("CPU/wall < {:g}", limits.min_cpu_wall);
    if (code == "disturbed") return "under half the samples kept the CPU; ± is their full spread";
    if (code == "split") return "samples in two clusters; ± covers both";
    if (code == "spread") return fmt::format("MAD > {:g}% of median", limits.max_spread * 100);
    if (code == "migrated") return "moved between CPUs";
    if (code == "preempted")
        return fmt::format("in ≥ {:g}% of samples", limits.preempted_share * 100);
    if (code == "run-delay")
        return fmt::format("waited for the CPU > {:g}% of wall time",
                           limits.max_run_delay_share * 100);
    if (code == "steal")
        return fmt::format("hypervisor stole > {:g}% of wall time", limits.max_steal_share * 100);
    if (code == "timer-resolution")
        return fmt::format("sample < {:g} timer steps", limits.min_timer_steps);
    return std::string(code);
}

}  // namespace glint::engine
