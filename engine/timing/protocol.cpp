#include "engine/timing/protocol.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "engine/stats/summary.hpp"
#include "engine/timing/clock.hpp"
#include "engine/timing/windows.hpp"
#include "os/thread_usage.hpp"

namespace glint::engine {
namespace {

constexpr std::uint64_t kMaxIterations = std::uint64_t{1} << 40;

double time_once(const glint::detail::Batch& batch, std::uint64_t n, std::uint64_t window) {
    if (!has_inputs(batch)) {
        const std::int64_t start = now_ns();
        batch.run(batch.ctx, n);
        const std::int64_t stop = now_ns();
        return static_cast<double>(stop - start);
    }
    // Windows: each one's inputs built untimed, then timed alone; the clock's empty bracket is
    // subtracted per window (a window may be short: a few us).
    const double bracket_ns = clock_properties().bracket_ns;
    double total = 0;
    for_each_window(batch, n, window, [&](std::uint64_t k) {
        const std::int64_t start = now_ns();
        batch.run(batch.ctx, k);
        const std::int64_t stop = now_ns();
        total += std::max(0.0, static_cast<double>(stop - start) - bracket_ns);
    });
    return total;
}

// Throws OptimizedAway when the samples say the compiler deleted the body (the rule:
// protocol.hpp). `window`: the iterations per timed window of a batch with inputs.
void refuse_optimized_away(const glint::detail::Batch& batch, const TimingSummary& t,
                           std::uint64_t window) {
    if (t.iterations_per_sample >= kMaxIterations || t.median_ns < kOptimizedAwayNs)
        throw OptimizedAway(fmt::format(
            "optimized away: the compiler deleted the body (pass its inputs and result through "
            "glint::black_box): {} iterations per sample took {:.2g} ns each, below 1 ps, "
            "faster than any instruction",
            t.iterations_per_sample, t.median_ns));
    const double bracket_ns = clock_properties().bracket_ns;
    const std::uint64_t calls = std::min(window, t.iterations_per_sample);
    const double window_ns = t.median_ns * static_cast<double>(calls);
    if (has_inputs(batch) && window_ns < bracket_ns / 2)
        throw OptimizedAway(fmt::format(
            "optimized away: the compiler deleted fn (pass its input and result through "
            "glint::black_box): a window of {} calls took {:.2g} ns, under half the clock's "
            "empty bracket ({:.0f} ns); if fn is real, raise glint::max_inputs: such windows "
            "are too short to time",
            calls, window_ns, bracket_ns));
}

}  // namespace

std::uint64_t double_until(const std::function<double(std::uint64_t)>& sample, double min_time_ns) {
    std::uint64_t n = 1;
    while (n < kMaxIterations) {
        // A sample that reaches the target is confirmed by a second one, so a single stall
        // (preemption, a page fault burst) cannot stop the doubling early.
        if (sample(n) >= min_time_ns && (n == 1 || sample(n) >= min_time_ns)) break;
        n *= 2;
    }
    return n;
}

TimingSummary summarize_samples(std::vector<double> sample_ns, std::uint64_t iterations,
                                bool per_call) {
    TimingSummary t;
    const Summary s = summarize(sample_ns);
    t.samples = sample_ns.size();
    t.iterations_per_sample = iterations;
    t.per_call = per_call;
    t.median_ns = s.median;
    t.repetition_median_ns = {s.median};
    t.mad_ns = s.mad;
    t.min_ns = s.min;
    t.max_ns = s.max;
    t.sample_ns = std::move(sample_ns);
    return t;
}

TimingSummary time_batched(const glint::detail::Batch& batch, const TimingConfig& config) {
    // With inputs, windows are sized from the latest sample's time per iteration (1 before
    // any). Setup runs outside the timed windows, so a sample's wall time can be far longer
    // than its timed part: a sample whose wall time reaches the case's budget per sample also
    // ends the doubling, so slow setup cannot make a case run for minutes.
    const double wall_cap =
        config.wall_budget_ns / static_cast<double>(std::max<std::uint64_t>(config.samples, 1));
    double per_iteration_ns = std::numeric_limits<double>::quiet_NaN();
    auto sample = [&](std::uint64_t k) {
        if (config.checkpoint) config.checkpoint();
        const std::int64_t wall_start = now_ns();
        const double timed = time_once(batch, k, window_for(batch, per_iteration_ns, k));
        per_iteration_ns = timed / static_cast<double>(k);
        if (has_inputs(batch) && static_cast<double>(now_ns() - wall_start) >= wall_cap)
            return std::max(timed, config.min_time_ns);
        return timed;
    };
    const std::uint64_t n = config.pinned ? config.pinned : double_until(sample, config.min_time_ns);
    // Pinned: a probe of up to 16 calls (windows of one) sizes the windows first.
    if (config.pinned && has_inputs(batch)) sample(std::min<std::uint64_t>(n, 16));
    const std::uint64_t window = window_for(batch, per_iteration_ns, n);
    if (config.warm_up) time_once(batch, n, window);
    if (config.progress) config.progress();
    std::vector<double> samples, cpu;
    samples.reserve(config.samples);
    cpu.reserve(config.samples);
    const double per = static_cast<double>(n);
    if (config.before_samples) config.before_samples();
    // One thread-CPU-clock read between consecutive samples (never inside a timed window):
    // each sample's CPU time is the difference of the reads around it. The wall span is read
    // just outside the first and last CPU reads, so the CPU span lies inside it (CPU/wall <= 1
    // for one thread, however short the samples).
    const std::int64_t wall_start = now_ns();
    std::int64_t cpu_before = os::thread_cpu_ns();
    double cpu_total = 0;
    for (std::uint64_t i = 0; i < config.samples; ++i) {
        if (config.checkpoint) config.checkpoint();  // counted in the sample's CPU time: a flag test
        const double t = time_once(batch, n, window);
        const std::int64_t cpu_after = os::thread_cpu_ns();
        // iter_batched: the inputs' setup runs between the timed windows, inside the CPU span,
        // so the sample's CPU time is not the timed part's: not measured.
        const bool measured = cpu_before >= 0 && cpu_after >= 0 && !has_inputs(batch);
        const double c = measured ? static_cast<double>(cpu_after - cpu_before) : NAN;
        cpu_before = cpu_after;
        samples.push_back(t / per);
        cpu.push_back(c / per);
        cpu_total += c;
    }
    const std::int64_t wall_stop = now_ns();
    TimingSummary summary = summarize_samples(std::move(samples), n, false);
    summary.sample_cpu_ns = std::move(cpu);
    summary.cpu_ns = cpu_total;
    summary.wall_ns = static_cast<double>(wall_stop - wall_start);
    if (config.refuse_optimized_away) refuse_optimized_away(batch, summary, window);
    return summary;
}

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
        if (measured >= config.min_time_ns) return true;
        return static_cast<double>(now_ns() - wall_start) >= config.wall_budget_ns;
    };
    while (!done()) {
        if (config.checkpoint) config.checkpoint();
        const double window = time_window_ns(clock, clock.ticks_usable, [&] { call.timed(); });
        after_one();
        // The budget counts the window as run, so a call cheaper than the bracket still ends
        // sampling at min-time instead of the wall budget.
        measured += window;
        samples.push_back(std::max(0.0, window - bracket_ns));
    }
    const std::int64_t cpu_stop = os::thread_cpu_ns();
    const std::int64_t wall_stop = now_ns();
    TimingSummary summary = summarize_samples(std::move(samples), 1, true);
    summary.resolution_ns = bracket_ns;
    if (cpu_start >= 0 && cpu_stop >= 0) {
        summary.cpu_ns = static_cast<double>(cpu_stop - cpu_start);
        summary.wall_ns = static_cast<double>(wall_stop - wall_start);
    }
    return summary;
}

}  // namespace glint::engine
