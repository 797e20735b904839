#include "engine/compare/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <tuple>

#include "engine/compare/simulated_basis.hpp"
#include "engine/model/not_measured.hpp"
#include "engine/stats/shift.hpp"
#include "engine/stats/summary.hpp"

namespace glint::engine {
namespace {

// Logs of the values, each at least `floor` (a per-call sample clamped at 0 has no log).
std::vector<double> logs(const std::vector<double>& values, double floor) {
    std::vector<double> out;
    out.reserve(values.size());
    for (double v : values) out.push_back(std::log(std::max(v, floor)));
    return out;
}

double smallest_positive(const std::vector<double>& a, const std::vector<double>& b) {
    double least = std::numeric_limits<double>::infinity();
    for (const auto* set : {&a, &b})
        for (double v : *set)
            if (v > 0) least = std::min(least, v);
    return std::isfinite(least) ? least : 1.0;
}

// The log-scale comparison of b against a: the Hodges–Lehmann ratio (nan when a side is empty)
// and Moses' interval of it (nullopt when none reaches `level`).
struct LogShift {
    double ratio = kNan;
    std::optional<std::pair<double, double>> interval;
};

LogShift log_shift(const std::vector<double>& a, const std::vector<double>& b, double level) {
    const double floor = smallest_positive(a, b) / 2;
    const std::vector<double> la = logs(a, floor), lb = logs(b, floor);
    LogShift out;
    const ShiftEstimate estimate = estimate_shift(la, lb, level);
    out.ratio = std::exp(estimate.shift);
    if (const auto& shift = estimate.interval)
        out.interval = std::pair{std::exp(shift->low), std::exp(shift->high)};
    return out;
}

bool measured_unstably(const Side& s) {
    for (const auto& r : s.unstable)
        if (disturbing_reason(r)) return true;
    return false;
}

// The per-sample comparison of one run (or too few repetitions) a side: an interval with no
// level, trusted only for a change beyond the single-run factor, and for a row measured
// unstably only when its CPU time moved beyond it too.
void by_samples(const Side& base, const Side& next, const CompareSettings& settings,
                double reps_ratio, Change& c) {
    const auto a = thin_to_quantiles(base.samples_ns, settings.thinned_samples);
    const auto b = thin_to_quantiles(next.samples_ns, settings.thinned_samples);
    const LogShift samples = log_shift(a, b, settings.level);
    c.ratio = std::isfinite(samples.ratio) ? samples.ratio : reps_ratio;
    if (!std::isfinite(c.ratio)) c.ratio = next.median_ns / base.median_ns;  // no values kept
    c.basis = c.interval = Basis::samples;
    c.time = Verdict::noisy;
    if (!samples.interval) return;
    std::tie(c.low, c.high) = *samples.interval;
    const double factor = settings.single_run_factor;
    if (c.low > factor) c.time = Verdict::slower;
    if (c.high < 1 / factor) c.time = Verdict::faster;
    if (c.time == Verdict::noisy || !(measured_unstably(base) || measured_unstably(next))) return;
    const bool cpu_moved =
        c.time == Verdict::slower ? c.cpu_ratio > factor : c.cpu_ratio < 1 / factor;
    if (!cpu_moved) {
        c.time = Verdict::noisy;
        c.unstable_cpu_unchanged = true;
    }
}

}  // namespace

const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::faster:
            return "faster";
        case Verdict::slower:
            return "slower";
        case Verdict::same:
            return "same";
        case Verdict::noisy:
            return "noisy";
        case Verdict::unavailable:
            return "unavailable";
    }
    return "unavailable";
}

const char* to_string(Basis b) {
    switch (b) {
        case Basis::repetitions:
            return "repetitions";
        case Basis::samples:
            return "samples";
        case Basis::instructions:
            return "instructions";
        case Basis::simulated:
            return "simulated";
        case Basis::runs:
            return "runs";
        case Basis::none:
            return "none";
    }
    return "none";
}

Verdict classify(double ratio, double low, double high, double threshold) {
    if (!(low <= high)) return Verdict::noisy;  // nan: no interval
    if (low > 1 + threshold) return Verdict::slower;
    if (high < 1 - threshold) return Verdict::faster;
    const bool within = std::fabs(ratio - 1) <= threshold;
    const bool resolved = high - low <= 2 * threshold;
    return within && resolved ? Verdict::same : Verdict::noisy;
}

Change compare_sides(const Side& base, const Side& next, const CompareSettings& settings) {
    Change c;
    c.low = c.high = c.reps_low = c.reps_high = c.runs_low = c.runs_high = kNan;
    c.coverage = c.instr_ratio = c.cpu_ratio = kNan;
    c.base_repetitions = base.repetition_medians.size();
    c.new_repetitions = next.repetition_medians.size();
    c.base_runs = std::max<std::size_t>(1, base.runs.size());
    c.new_runs = std::max<std::size_t>(1, next.runs.size());
    if (!base.cpu_samples_ns.empty() && !next.cpu_samples_ns.empty())
        c.cpu_ratio = median(next.cpu_samples_ns) / median(base.cpu_samples_ns);
    // The point estimate is the interval's own estimator, over the same values.
    const LogShift reps =
        log_shift(base.repetition_medians, next.repetition_medians, settings.level);
    if (reps.interval) std::tie(c.reps_low, c.reps_high) = *reps.interval;
    std::optional<RunsInterval> runs;
    if (c.base_runs > 1 && c.new_runs > 1) {
        const CoreScreen off_core = screen_core_speed(base.runs, next.runs);
        KeptRuns a = keep_runs(base.runs, true, settings.threshold, off_core.base);
        KeptRuns b = keep_runs(next.runs, false, settings.threshold, off_core.next);
        runs = runs_interval(a.medians, b.medians, settings.level);
        c.dropped = std::move(a.dropped);
        c.dropped.insert(c.dropped.end(), b.dropped.begin(), b.dropped.end());
    }
    if (runs) {  // a run is the unit of evidence
        c.ratio = runs->ratio;
        c.low = c.runs_low = runs->low;
        c.high = c.runs_high = runs->high;
        c.coverage = runs->coverage;
        c.basis = c.interval = Basis::runs;
        c.runs_too_few = runs->coverage < settings.min_runs_coverage - 1e-9;
        c.time =
            c.runs_too_few ? Verdict::noisy : classify(c.ratio, c.low, c.high, settings.threshold);
    } else if (reps.interval) {
        c.ratio = reps.ratio;
        std::tie(c.low, c.high) = *reps.interval;
        c.coverage = settings.level;
        c.basis = c.interval = Basis::repetitions;
        c.time = classify(c.ratio, c.low, c.high, settings.threshold);
    } else {
        by_samples(base, next, settings, reps.ratio, c);
    }
    c.verdict = c.time;
    if (base.instructions && next.instructions && *base.instructions > 0 &&
        *next.instructions > 0) {
        c.instr_ratio = *next.instructions / *base.instructions;
        const bool moved = std::fabs(c.instr_ratio - 1) > settings.instr_threshold;
        if (c.time == Verdict::noisy && moved) {
            c.verdict = c.instr_ratio > 1 ? Verdict::slower : Verdict::faster;
            c.basis = Basis::instructions;
        }
    }
    apply_simulated_basis(c, base, next);
    return c;
}

bool slower_beyond(const Change& change, double fraction) {
    if (change.verdict != Verdict::slower) return false;
    if (change.basis == Basis::instructions) return change.instr_ratio > 1 + fraction;
    if (change.basis == Basis::simulated) return change.ratio > 1 + fraction;
    return change.low > 1 + fraction;
}

GateJudgement judge_gate(const Change& change, double fraction) {
    const double edge = 1 + fraction;
    if (slower_beyond(change, fraction)) return {GateOutcome::failed, Unjudged::none};
    if (change.basis == Basis::simulated) return {GateOutcome::passed, Unjudged::none};
    if (change.basis == Basis::instructions)
        return change.instr_ratio <= edge
                   ? GateJudgement{GateOutcome::passed, Unjudged::none}
                   : GateJudgement{GateOutcome::unjudged, Unjudged::straddles};
    if (change.interval == Basis::samples) {  // a within-run interval: never judges a pass
        if (change.unstable_cpu_unchanged) return {GateOutcome::unjudged, Unjudged::unstable};
        const bool one_run = change.base_repetitions <= 1 && change.new_repetitions <= 1 &&
                             change.base_runs == 1 && change.new_runs == 1;
        return {GateOutcome::unjudged, one_run ? Unjudged::one_run : Unjudged::few_repetitions};
    }
    if (change.interval == Basis::runs) {
        if (change.runs_too_few) return {GateOutcome::unjudged, Unjudged::few_runs};
        if (change.high <= edge) return {GateOutcome::passed, Unjudged::none};
        // Runs spread wider than the gate disagree; a narrow interval across it is a change
        // near the gate.
        const bool spread = change.high - change.low > 2 * fraction;
        return {GateOutcome::unjudged, spread ? Unjudged::runs_straddle : Unjudged::straddles};
    }
    if (!(change.high <= edge)) return {GateOutcome::unjudged, Unjudged::straddles};
    if (change.base_runs > 1 || change.new_runs > 1)
        return {GateOutcome::unjudged, Unjudged::runs_one_side};
    return {GateOutcome::passed, Unjudged::none};
}

const char* to_string(GateOutcome o) {
    switch (o) {
        case GateOutcome::passed:
            return "passed";
        case GateOutcome::failed:
            return "failed";
        case GateOutcome::unjudged:
            return "unjudged";
    }
    return "unjudged";
}

namespace {

// Each reason, in the enum's order: the gate line's words and the table cell's.
struct UnjudgedText {
    const char* full;
    const char* brief;
};
constexpr UnjudgedText kUnjudgedTexts[] = {
    {"judged", "judged"},
    {"one run a side", "1 run a side"},
    {"fewer than 4 repetitions a side", "too few reps"},
    {"several runs on one side only", "runs on 1 side"},
    {"interval reaches beyond the gate", "reaches the gate"},
    {"runs disagree", "runs disagree"},
    {"fewer than 3 runs a side", "too few runs"},
    {"measured unstably, CPU time unchanged", "unstable"},
};
static_assert(std::size(kUnjudgedTexts) == static_cast<std::size_t>(Unjudged::unstable) + 1);

}  // namespace

const char* to_string(Unjudged u) { return kUnjudgedTexts[static_cast<std::size_t>(u)].full; }

const char* short_text(Unjudged u) { return kUnjudgedTexts[static_cast<std::size_t>(u)].brief; }

}  // namespace glint::engine
