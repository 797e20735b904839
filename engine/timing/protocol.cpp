#include "engine/timing/protocol.hpp"

#include <algorithm>

#include "engine/stats/summary.hpp"
#include "engine/timing/clock.hpp"

namespace glint::engine {
namespace {

constexpr std::uint64_t kMaxIterations = std::uint64_t{1} << 40;

double time_once(const glint::detail::Batch& batch, std::uint64_t n) {
    const std::int64_t start = now_ns();
    batch.run(batch.ctx, n);
    const std::int64_t stop = now_ns();
    return static_cast<double>(stop - start);
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
    const std::uint64_t n =
        config.pinned ? config.pinned
                      : double_until(
                            [&](std::uint64_t k) {
                                if (config.checkpoint) config.checkpoint();
                                return time_once(batch, k);
                            },
                            config.min_time_ns);
    if (config.progress) config.progress();
    std::vector<double> samples;
    samples.reserve(config.samples);
    for (std::uint64_t i = 0; i < config.samples; ++i) {
        if (config.checkpoint) config.checkpoint();
        samples.push_back(time_once(batch, n) / static_cast<double>(n));
    }
    return summarize_samples(std::move(samples), n, false);
}

TimingSummary time_per_call(glint::detail::PerCall& call, const std::function<void()>& after_one,
                            const TimingConfig& config) {
    const ClockProperties& clock = clock_properties();
    // The empty bracket of the clock in use, subtracted from every timed window.
    const double bracket_ns = clock.ticks_usable ? clock.tick_bracket_ns : clock.bracket_ns;
    std::vector<double> samples;
    double measured = 0;
    const std::int64_t wall_start = now_ns();
    if (config.progress) config.progress();
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
    TimingSummary summary = summarize_samples(std::move(samples), 1, true);
    summary.resolution_ns = bracket_ns;
    return summary;
}

}  // namespace glint::engine
