#include "engine/compare/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "engine/compare/simulated_basis.hpp"
#include "engine/model/not_measured.hpp"
#include "engine/stats/shift.hpp"

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
    out.ratio = std::exp(hodges_lehmann_shift(la, lb));
    if (const auto shift = shift_interval(la, lb, level))
        out.interval = std::pair{std::exp(shift->low), std::exp(shift->high)};
    return out;
}

// The ratio interval of b against a from a log-scale shift interval; nullopt when none exists.
std::optional<std::pair<double, double>> ratio_interval(const std::vector<double>& a,
                                                        const std::vector<double>& b,
                                                        double level) {
    return log_shift(a, b, level).interval;
}

// The interval between runs: Moses' at `level` when the run counts reach it, else the full range
// of the ratios (every run of `b` against every run of `a`). nullopt unless a side is several.
std::optional<std::pair<double, double>> runs_interval(const std::vector<double>& a,
                                                       const std::vector<double>& b, double level) {
    if (a.empty() || b.empty() || a.size() + b.size() < 3) return std::nullopt;
    if (auto at_level = ratio_interval(a, b, level)) return at_level;
    const auto [alo, ahi] = std::minmax_element(a.begin(), a.end());
    const auto [blo, bhi] = std::minmax_element(b.begin(), b.end());
    return std::pair{*blo / *ahi, *bhi / *alo};
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
    c.low = c.high = c.runs_low = c.runs_high = kNan;
    c.instr_ratio = kNan;
    c.base_repetitions = base.repetition_medians.size();
    c.new_repetitions = next.repetition_medians.size();
    c.base_runs = std::max<std::size_t>(1, base.run_medians.size());
    c.new_runs = std::max<std::size_t>(1, next.run_medians.size());
    // The point estimate is the interval's own estimator, over the same values.
    const LogShift reps =
        log_shift(base.repetition_medians, next.repetition_medians, settings.level);
    if (reps.interval) {
        c.ratio = reps.ratio;
        std::tie(c.low, c.high) = *reps.interval;
        c.basis = c.interval = Basis::repetitions;
        c.time = classify(c.ratio, c.low, c.high, settings.threshold);
    } else {
        // One run (or too few): the per-sample interval, trusted only for a huge change.
        const auto a = thin_to_quantiles(base.samples_ns, settings.thinned_samples);
        const auto b = thin_to_quantiles(next.samples_ns, settings.thinned_samples);
        const LogShift samples = log_shift(a, b, settings.level);
        c.ratio = std::isfinite(samples.ratio) ? samples.ratio : reps.ratio;
        if (!std::isfinite(c.ratio)) c.ratio = next.median_ns / base.median_ns;  // no values kept
        c.basis = c.interval = Basis::samples;
        c.time = Verdict::noisy;
        if (samples.interval) {
            std::tie(c.low, c.high) = *samples.interval;
            if (c.low > settings.single_run_factor) c.time = Verdict::slower;
            if (c.high < 1 / settings.single_run_factor) c.time = Verdict::faster;
        }
    }
    if (auto runs = runs_interval(base.run_medians, next.run_medians, settings.level)) {
        std::tie(c.runs_low, c.runs_high) = *runs;
        const bool agree = c.time == Verdict::slower   ? c.runs_low > 1 + settings.threshold
                           : c.time == Verdict::faster ? c.runs_high < 1 - settings.threshold
                                                       : true;
        if (!agree) {
            c.time = Verdict::noisy;
            c.basis = Basis::runs;
        }
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
    return change.low > 1 + fraction && !(change.runs_low <= 1 + fraction);  // nan: one run a side
}

GateJudgement judge_gate(const Change& change, double fraction) {
    const double edge = 1 + fraction;
    if (slower_beyond(change, fraction)) return {GateOutcome::failed, Unjudged::none};
    if (change.basis == Basis::simulated) return {GateOutcome::passed, Unjudged::none};
    if (change.basis == Basis::instructions)
        return change.instr_ratio <= edge
                   ? GateJudgement{GateOutcome::passed, Unjudged::none}
                   : GateJudgement{GateOutcome::unjudged, Unjudged::straddles};
    if (change.interval != Basis::repetitions) {  // a within-run interval: never judges a pass
        const bool one_run = change.base_repetitions <= 1 && change.new_repetitions <= 1 &&
                             change.base_runs == 1 && change.new_runs == 1;
        return {GateOutcome::unjudged, one_run ? Unjudged::one_run : Unjudged::few_repetitions};
    }
    if (!(change.high <= edge)) return {GateOutcome::unjudged, Unjudged::straddles};
    if (change.base_runs > 1 || change.new_runs > 1) {
        if (std::isnan(change.runs_high)) return {GateOutcome::unjudged, Unjudged::runs_one_side};
        if (!(change.runs_high <= edge)) return {GateOutcome::unjudged, Unjudged::runs_straddle};
    }
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

const char* to_string(Unjudged u) {
    switch (u) {
        case Unjudged::none:
            return "judged";
        case Unjudged::one_run:
            return "one run a side";
        case Unjudged::few_repetitions:
            return "too few repetitions for a 95% interval";
        case Unjudged::runs_one_side:
            return "several runs on one side only";
        case Unjudged::straddles:
            return "interval reaches beyond the gate";
        case Unjudged::runs_straddle:
            return "runs disagree";
    }
    return "judged";
}

}  // namespace glint::engine
