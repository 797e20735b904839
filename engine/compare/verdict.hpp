// engine/compare/verdict.hpp: the verdict on one row measured twice (base and new). Pure.
//
// change = the Hodges–Lehmann ratio of the values its interval at `level` (95%) comes from: the
// repetition medians (the per-sample times when a side has too few). Against t (3%): slower
// or faster when the whole interval lies beyond ±t; same when the change is within ±t and the
// interval is no wider than 2t; noisy otherwise. A single-run side is never "same" and is
// slower/faster only beyond single_run_factor. Several runs per side must also agree (basis
// "runs"). Exact instruction counts beyond instr_threshold decide a noisy time (basis
// "instructions"). The gate judges a row passed, failed or unjudged (judge_gate).
// Rationale and details: docs/rationale.md, "engine/compare/verdict.hpp".
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace glint::engine {

enum class Verdict { faster, slower, same, noisy, unavailable };
// What the verdict rests on.
// simulated: exact simulated instructions (--simulate), one run a side (simulated_basis.hpp).
enum class Basis { repetitions, samples, instructions, runs, none, simulated };

const char* to_string(Verdict v);
const char* to_string(Basis b);

struct CompareSettings {
    double threshold = 0.03;         // practical threshold, as a fraction (--threshold=PCT / 100)
    double instr_threshold = 0.01;   // instructions/iter anchor
    double level = 0.95;             // confidence of every interval
    double single_run_factor = 4.0;  // a per-sample verdict needs the interval beyond ×4 or ÷4
    std::size_t thinned_samples = 256;
};

// One side of a comparison: a row of one run.
struct Side {
    double median_ns = 0;                    // the headline (median of repetition medians)
    std::vector<double> repetition_medians;  // one per repetition
    std::vector<double> samples_ns;          // samples of every repetition (thinned before use)
    std::vector<double> run_medians;         // each run's median, when the side is several runs
    std::optional<double> instructions;      // exact instructions per iteration, when counted
    std::optional<double> simulated_instructions;  // sim-instr per iteration (--simulate)
};

struct Change {
    double ratio = 0;          // the point estimate: exp(Hodges–Lehmann shift of the logs)
    double low = 0, high = 0;  // the interval of the ratio (nan when none exists)
    double runs_low = 0, runs_high = 0;  // the interval between runs (nan unless a side is several)
    double instr_ratio = 0;  // new / base instructions per iteration (nan when not both)
    Verdict time = Verdict::unavailable;  // what time alone says
    Verdict verdict = Verdict::unavailable;
    Basis basis = Basis::none;
    Basis interval = Basis::none;  // what low/high rest on: repetitions or samples
    std::size_t base_repetitions = 0, new_repetitions = 0;  // each side's repetition count
    std::size_t base_runs = 1, new_runs = 1;                // each side's run count
};

// The verdict of a ratio and its interval against the band ±threshold.
Verdict classify(double ratio, double low, double high, double threshold);

// The comparison of two measured sides (both medians finite and > 0).
Change compare_sides(const Side& base, const Side& next, const CompareSettings& settings);

// The gate: slower beyond `fraction` with confidence (the interval's low bound and the runs'
// when a side is several runs, or on the instructions basis the instructions' change, beyond it).
bool slower_beyond(const Change& change, double fraction);

// The gate's judgement of one compared row against `fraction` (--fail-if-slower / 100).
enum class GateOutcome { passed, failed, unjudged };
// Why a row could not be judged (none when judged); the gate line groups rows by it.
enum class Unjudged { none, one_run, few_repetitions, runs_one_side, straddles, runs_straddle };
struct GateJudgement {
    GateOutcome outcome = GateOutcome::unjudged;
    Unjudged why = Unjudged::none;
};
// failed: slower_beyond. passed: the interval (repetitions basis) and the runs' interval, when a
// side is several runs, end at or below 1 + fraction; on the instructions basis, the
// instructions' change is within it. Anything else, e.g. a per-sample interval, is unjudged.
GateJudgement judge_gate(const Change& change, double fraction);
const char* to_string(GateOutcome o);
// "one run a side", "too few repetitions", ...: the words the gate line groups by.
const char* to_string(Unjudged u);

}  // namespace glint::engine
