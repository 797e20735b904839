#include "engine/timing/protocol.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include <glint/iter_batched.hpp>

#include "engine/stats/headline.hpp"
#include "engine/stats/summary.hpp"
#include "engine/timing/clock.hpp"
#include "engine/timing/core_probe.hpp"
#include "engine/timing/difference.hpp"
#include "engine/timing/timed_windows.hpp"
#include "engine/timing/windows.hpp"
#include "os/thread_usage.hpp"

namespace glint::engine {
namespace {

constexpr std::uint64_t kMaxIterations = std::uint64_t{1} << 40;

// One sample's timed part (wall) and, when `read_cpu`, the thread CPU time of its timed windows
// (iter_batched: the windows' wall less the time lost between CPU reads around each window and
// its setup; without inputs the caller reads it between samples).
// With a reference (the difference method), wall is run's window minus reference's and whole
// the two windows together: what the CPU reads between samples cover. A batch that times itself
// (a team) gives its own wall and CPU.
struct Once {
    double wall = 0;
    double cpu = NAN;
    double whole = 0;
    double core_step = NAN;  // a self-timing batch's own core-speed probe (nan: none)
};

// Iterations a sample of n calls of the batch times (n, or n * span with a reference).
double sample_iterations(const glint::detail::Batch& batch, std::uint64_t n) {
    return static_cast<double>(n) * static_cast<double>(batch.reference ? batch.span : 1);
}

Once time_once(const glint::detail::Batch& batch, std::uint64_t n, std::uint64_t window,
               bool read_cpu = false) {
    if (batch.reference) {
        const DifferenceSample d = time_difference(batch, n, 0);
        return {d.wall, NAN, d.whole};
    }
    if (batch.self_timing) {
        batch.run(batch.ctx, n);
        const glint::detail::Batch::SelfTiming t = batch.self_timing(batch.ctx);
        return {t.wall_ns, t.cpu_ns, t.wall_ns, t.core_step_ns};
    }
    if (!has_inputs(batch)) {
        const std::int64_t start = now_ns();
        batch.run(batch.ctx, n);
        const std::int64_t stop = now_ns();
        return {static_cast<double>(stop - start), NAN, static_cast<double>(stop - start)};
    }
    // Windows: each one's inputs built untimed, then timed alone (timed_windows.hpp).
    const WindowsTime t = time_windows(batch, n, window, read_cpu);
    return {t.wall, t.cpu, t.wall};
}

// iter_batched: the calls of a probe window: the cap, at most glint's default (1024 calls of a
// real fn take 250+ ns, far above any bracket; a larger cap would only hold more inputs).
std::uint64_t probe_calls(const glint::detail::Batch& batch) {
    return std::min<std::uint64_t>(batch.max_window, glint::kDefaultMaxInputs);
}

// iter_batched: the quickest of up to 16 windows of probe_calls, each timed alone with nothing
// else between them (no CPU-clock reads), less the clock's bracket; it stops early at one under
// `enough_ns` and after `wall_cap_ns` of probing. Load only adds time, so the quickest window
// is what the calls cost.
double quickest_full_window_ns(const glint::detail::Batch& batch, double enough_ns,
                               double wall_cap_ns) {
    double quickest = INFINITY;
    const std::int64_t start = now_ns();
    for (int i = 0; i < 16 && quickest >= enough_ns; ++i) {
        quickest =
            std::min(quickest, time_once(batch, probe_calls(batch), probe_calls(batch)).wall);
        if (static_cast<double>(now_ns() - start) >= wall_cap_ns) break;
    }
    return quickest;
}

// Throws OptimizedAway when the samples say the compiler deleted the body (the rule:
// protocol.hpp). `window`: the iterations per timed window of a batch with inputs.
void refuse_optimized_away(const glint::detail::Batch& batch, const TimingSummary& t,
                           std::uint64_t window, double wall_cap_ns) {
    if (batch.reference) return;  // emitted code: an instruction the core eliminates costs 0
    if (!has_inputs(batch) &&
        (t.iterations_per_sample >= kMaxIterations || t.median_ns < kOptimizedAwayNs))
        throw OptimizedAway(fmt::format(
            "optimized away: the compiler deleted the body (pass its inputs and result through "
            "glint::black_box): {} iterations per sample took {:.2g} ns each, below 1 ps, "
            "faster than any instruction",
            t.iterations_per_sample, t.median_ns));
    if (!has_inputs(batch)) return;
    // iter_batched: only windows at their cap decide (fewer calls may read within the bracket
    // for a real fn). The samples only choose the suspects: their quickest windows within 8
    // brackets. The samples' windows may not be at the cap (a disturbed doubling sizes them)
    // and each follows CPU-clock reads (syscalls, whose return can slow the next window), so
    // the verdict is the probe's: its quickest full window under half the bracket.
    const double bracket_ns = clock_properties().bracket_ns;
    const std::uint64_t calls = std::min(window, t.iterations_per_sample);
    if (!(t.min_ns * static_cast<double>(calls) < 8 * bracket_ns)) return;
    const double window_ns = quickest_full_window_ns(batch, bracket_ns / 2, wall_cap_ns);
    if (window_ns < bracket_ns / 2)
        throw OptimizedAway(fmt::format(
            "optimized away: the compiler deleted fn (pass its input and result through "
            "glint::black_box): a window of {} calls took {:.2g} ns, under half the clock's "
            "empty bracket ({:.0f} ns); if fn is real, such windows are too short to time: "
            "raise glint::max_inputs",
            probe_calls(batch), window_ns, bracket_ns));
}

// Samples of n iterations (windows of `window` with inputs): at least config.samples, up to
// `count` while within budget_ns of wall time. Wall per sample is its timed part; CPU per
// sample (clamped to it) comes from the reads between samples, or around each window and its setup.
struct SampleRun {
    std::vector<double> wall, cpu;   // per iteration
    std::vector<double> probes;      // core-speed probes around the samples (empty: not probed)
    std::vector<double> own_probes;  // a self-timing batch's own, one a sample (a team's)
    std::vector<double> unit, unit_probes;  // a difference's unit per sample (empty: none)
    double cpu_total = NAN, wall_total = NAN;
    double tolerance_per_sample = 0;  // ns a sample's CPU reads may hide
};

SampleRun run_samples(const glint::detail::Batch& batch, const TimingConfig& config,
                      std::uint64_t n, std::uint64_t window, std::uint64_t count, double budget_ns,
                      std::uint64_t unit_n = 0) {
    SampleRun r;
    r.wall.reserve(count);
    r.cpu.reserve(count);
    const double per = sample_iterations(batch, n);
    const bool windows = has_inputs(batch);
    const bool own_cpu = windows || batch.self_timing;  // the sample reads its CPU itself
    const std::uint64_t reads = windows ? (n + window - 1) / std::max<std::uint64_t>(window, 1) : 1;
    // A team times itself on several threads; a difference's unit is its probe (difference.hpp).
    // A probe runs before the CPU read that ends a sample (a switch the read triggers
    // then falls outside it), and its time is taken off that CPU span (where the span comes
    // from reads between samples): its wall time, or a cap where it lost the CPU.
    const bool probe = config.core_probe && !batch.self_timing && !batch.reference;
    double probes_ns = 0;  // the probes' time since the last CPU read
    double fastest = INFINITY;
    auto run_probe = [&] {
        const std::int64_t start = now_ns();
        const double step = config.probe ? config.probe() : probe_step_ns();
        const double took = static_cast<double>(now_ns() - start);
        r.probes.push_back(step);
        fastest = std::min(fastest, step);
        probes_ns +=
            std::min(took, kInterruptedProbeFactor * fastest * static_cast<double>(kProbeSteps));
    };
    if (probe) r.probes.reserve(count + 1);
    r.tolerance_per_sample = static_cast<double>(reads) * cpu_tolerance_per_read();
    // The wall span is read just outside the first and last CPU reads, so the CPU span lies
    // inside it (CPU/wall <= 1 for one thread, however short the samples).
    const std::int64_t wall_start = now_ns();
    const std::int64_t cpu_start = os::thread_cpu_ns();
    std::int64_t cpu_before = cpu_start;
    if (probe) run_probe();
    for (std::uint64_t i = 0; i < count; ++i) {
        if (i >= config.samples && static_cast<double>(now_ns() - wall_start) >= budget_ns) break;
        if (config.checkpoint)
            config.checkpoint();  // counted in the sample's CPU time: a flag test
        Once once;
        if (batch.reference) {  // the difference, its unit timed beside it (difference.hpp)
            const DifferenceSample d = time_difference(batch, n, unit_n, config.pair_clock);
            once = {d.wall, NAN, d.whole};
            if (unit_n) {
                r.unit.push_back(d.unit_ns);
                r.unit_probes.push_back(d.probe_ns);
            }
        } else {
            once = time_once(batch, n, window, windows);
        }
        if (probe) run_probe();
        if (config.core_probe && std::isfinite(once.core_step))
            r.own_probes.push_back(once.core_step);
        const std::int64_t cpu_after = os::thread_cpu_ns();
        double c = own_cpu ? once.cpu : NAN;
        if (!own_cpu && cpu_before >= 0 && cpu_after >= 0)
            c = std::max(0.0, static_cast<double>(cpu_after - cpu_before) - probes_ns);
        probes_ns = 0;
        cpu_before = cpu_after;
        r.wall.push_back(once.wall / per);
        // The time the sample lost (whole - CPU) is taken off its wall: CPU = wall without a
        // reference, clamped to it; with one, the difference less what either window lost.
        const double lost = std::isnan(c) ? NAN : std::max(0.0, once.whole - c);
        r.cpu.push_back((once.wall - lost) / per);  // NaN stays NaN
    }
    const std::int64_t cpu_stop = os::thread_cpu_ns();
    const std::int64_t wall_stop = now_ns();
    r.wall_total = static_cast<double>(wall_stop - wall_start);
    r.cpu_total =
        run_cpu_ns(cpu_start, cpu_stop, r.wall_total, clock_properties().thread_cpu_step_ns);
    return r;
}

// The samples the probes around them found on a slowed core (empty: not probed); a
// difference's, those its unit's probe found.
std::vector<bool> slow_core_of(const SampleRun& r) {
    if (!r.unit_probes.empty()) return slow_unit_samples(r.unit_probes);
    if (r.probes.empty()) return {};
    return slow_core_samples(
        r.probes, r.probes.size() - 1);  // one probe before each sample, one after the last
}

// The core's speed in the pass: its probes' median (NaN: not probed).
double core_step_of(const SampleRun& r) {
    return pass_core_step(r.probes.empty() ? r.own_probes : r.probes);
}

// Iterations per retaken sample: about kRetakeSampleNs, never below 1000 timer steps.
constexpr double kRetakeSampleNs = 250000;
std::uint64_t retake_iterations(double per_iteration_ns, std::uint64_t n) {
    if (!(per_iteration_ns > 0)) return n;
    const double target = std::max(kRetakeSampleNs, 1000 * clock_properties().resolution_ns);
    const double k = std::ceil(target / per_iteration_ns);
    return k >= static_cast<double>(n) ? n
                                       : std::max<std::uint64_t>(1, static_cast<std::uint64_t>(k));
}

}  // namespace

void apply_headline(TimingSummary& t, double tolerance_ns, double step_ns) {
    HeadlineRule rule;
    rule.tolerance_ns = tolerance_ns;
    rule.step_ns = step_ns;
    const Headline h =
        estimate_headline(t.sample_ns, t.sample_cpu_ns, rule, t.slow_core, t.unit_sample_ns);
    t.per_unit = h.per_unit;
    t.estimator = h.estimator;
    if (h.clean) t.clean_samples = *h.clean;
    if (h.disturbed) t.disturbed_samples = *h.disturbed;
    if (h.slow_core) t.slow_core_samples = *h.slow_core;
    t.median_ns = h.median;
    t.repetition_median_ns = {h.median};
    t.mad_ns = h.mad;
    t.spread_ns = h.spread;  // never below the clock's quantum (rule.step_ns, per iteration)
    t.split = h.split;
}

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

TimingSummary time_batched(const glint::detail::Batch& batch, const TimingConfig& given) {
    TimingConfig config = given;
    if (batch.reference) config.samples *= kDifferenceSampleFactor;
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
        const double timed = time_once(batch, k, window_for(batch, per_iteration_ns, k)).whole;
        per_iteration_ns = timed / static_cast<double>(k);
        if (has_inputs(batch) && static_cast<double>(now_ns() - wall_start) >= wall_cap)
            return std::max(timed, config.min_time_ns);
        return timed;
    };
    const std::uint64_t n =
        config.pinned ? config.pinned : double_until(sample, config.min_time_ns);
    // Pinned: a probe of up to 16 calls (windows of one) sizes the windows first.
    if (config.pinned && has_inputs(batch)) sample(std::min<std::uint64_t>(n, 16));
    const std::uint64_t window = window_for(batch, per_iteration_ns, n);
    if (config.warm_up) (void)time_once(batch, n, window);
    if (config.progress) config.progress();
    if (config.before_samples) config.before_samples();
    const std::uint64_t unit_n = unit_calls(batch, config.min_time_ns, config.pair_clock);
    SampleRun run = run_samples(batch, config, n, window, config.samples, INFINITY, unit_n);
    TimingSummary summary = summarize_samples(
        std::move(run.wall), static_cast<std::uint64_t>(sample_iterations(batch, n)), false);
    summary.sample_cpu_ns = std::move(run.cpu);
    summary.slow_core = slow_core_of(run);
    summary.core_step_ns = core_step_of(run);
    summary.unit_sample_ns = std::move(run.unit);
    summary.cpu_ns = run.cpu_total;
    summary.wall_ns = run.wall_total;
    if (config.refuse_optimized_away) refuse_optimized_away(batch, summary, window, wall_cap);
    const double tolerance = run.tolerance_per_sample / sample_iterations(batch, n);
    const double step = clock_properties().resolution_ns;
    apply_headline(summary, tolerance, step / sample_iterations(batch, n));
    // Contended retake (docs/load.md): fewer than half the samples kept the CPU, so samples
    // are retaken at short windows, more of them, within the first samples' wall time.
    // Not with a reference: its median is per difference iteration, not per call of run.
    const bool may_retake = !config.pinned && config.contended_retake && !batch.reference;
    const std::uint64_t short_n = may_retake ? retake_iterations(summary.median_ns, n) : n;
    if (summary.estimator == kEstimatorAllMedian && short_n * 2 <= n) {
        if (config.progress) config.progress();
        SampleRun again =
            run_samples(batch, config, short_n, window_for(batch, per_iteration_ns, short_n),
                        4 * config.samples, std::max(run.wall_total, 0.0));
        TimingSummary retake = summarize_samples(std::move(again.wall), short_n, false);
        retake.sample_cpu_ns = std::move(again.cpu);
        retake.slow_core = slow_core_of(again);
        retake.core_step_ns = core_step_of(again);
        retake.cpu_ns = again.cpu_total;
        retake.wall_ns = again.wall_total;
        retake.retaken = true;
        apply_headline(retake, again.tolerance_per_sample / static_cast<double>(short_n),
                       step / static_cast<double>(short_n));
        summary = std::move(retake);
        // The retaken samples judged again (the first ones were judged above, before the headline).
        if (config.refuse_optimized_away) refuse_optimized_away(batch, summary, window, wall_cap);
    }
    return summary;
}

}  // namespace glint::engine
