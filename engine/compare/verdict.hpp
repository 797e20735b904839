// engine/compare/verdict.hpp: the verdict on one row measured twice (base and new). Pure.
//
// change = the Hodges–Lehmann ratio of the values its interval comes from: the runs' medians
// when both sides are several runs (runs.hpp: disturbed runs left out), else the repetition
// medians, else (too few) the per-sample times. Against t (3%): slower or faster when the
// whole interval lies beyond ±t; same when the change is within ±t and the interval is no
// wider than 2t; noisy otherwise. A per-sample interval has no level (it cannot see drift
// between runs): never "same", slower/faster only beyond single_run_factor, and not even then
// when a side was measured unstably and its CPU time did not move too. Exact instruction
// counts beyond instr_threshold decide a noisy time. The gate: judge_gate.
// Rationale and details: docs/comparing.md, docs/rationale.md "engine/compare/verdict.hpp".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/compare/runs.hpp"

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
    double min_runs_coverage = 0.90;  // runs judge from 3 against 3 (the widest interval: 90%)
};

// One side of a comparison: a row of one run.
struct Side {
    double median_ns = 0;                    // the headline (median of repetition medians)
    std::vector<double> repetition_medians;  // one per repetition
    std::vector<double> samples_ns;          // samples of every repetition (thinned before use)
    std::optional<double> instructions;      // exact instructions per iteration, when counted
    std::vector<RunEvidence> runs;           // each run of the side (one: a single document)
    std::vector<std::string> unstable;       // the row's unstable reasons (any run)
    std::vector<double> cpu_samples_ns;      // CPU time of each sample, when recorded
    std::optional<double> simulated_instructions;  // sim-instr per iteration (--simulate)
};

struct Change {
    double ratio = 0;          // the point estimate: exp(Hodges–Lehmann shift of the logs)
    double low = 0, high = 0;  // the interval the verdict uses (nan when none exists)
    double coverage = 0;       // its coverage (nan for a per-sample interval: it has none)
    double reps_low = 0, reps_high = 0;  // the pooled repetitions' interval (nan when none)
    double runs_low = 0, runs_high = 0;  // the runs' interval (nan unless both are several)
    double instr_ratio = 0;  // new / base instructions per iteration (nan when not both)
    double cpu_ratio = 0;    // new / base median CPU time per sample (nan when not both)
    Verdict time = Verdict::unavailable;  // what time alone says
    Verdict verdict = Verdict::unavailable;
    Basis basis = Basis::none;
    Basis interval = Basis::none;  // what low/high rest on: runs, repetitions or samples
    std::size_t base_repetitions = 0, new_repetitions = 0;  // each side's repetition count
    std::size_t base_runs = 1, new_runs = 1;                // each side's run count
    std::vector<DroppedRun> dropped;                        // runs left out as disturbed (runs.hpp)
    // A per-sample change beyond single_run_factor on a row measured unstably whose CPU time
    // did not move as much: not a verdict (noisy), and not judged by the gate.
    bool unstable_cpu_unchanged = false;
    bool runs_too_few = false;  // the runs' interval covers less than min_runs_coverage
};

// The verdict of a ratio and its interval against the band ±threshold.
Verdict classify(double ratio, double low, double high, double threshold);

// The comparison of two measured sides (both medians finite and > 0).
Change compare_sides(const Side& base, const Side& next, const CompareSettings& settings);

// The gate: slower beyond `fraction` with confidence (the verdict's interval's low bound, or on
// the instructions basis the instructions' change, beyond it).
bool slower_beyond(const Change& change, double fraction);

// The gate's judgement of one compared row against `fraction` (--fail-if-slower / 100).
enum class GateOutcome { passed, failed, unjudged };
// Why a row could not be judged (none when judged); the gate line groups rows by it.
enum class Unjudged {
    none,
    one_run,
    few_repetitions,
    runs_one_side,
    straddles,
    runs_straddle,
    few_runs,
    unstable
};
struct GateJudgement {
    GateOutcome outcome = GateOutcome::unjudged;
    Unjudged why = Unjudged::none;
};
// failed: slower_beyond. passed: the verdict's interval (runs of at least min_runs_coverage, or
// repetitions when neither side is several runs) ends at or below 1 + fraction; on the
// instructions basis, the instructions' change is within it. Anything else, e.g. a per-sample
// interval, too few runs or runs on one side only, is unjudged.
GateJudgement judge_gate(const Change& change, double fraction);
const char* to_string(GateOutcome o);
// "one run a side", "too few repetitions", ...: the words the gate line groups by.
const char* to_string(Unjudged u);
// The same, short, for a table's verdict cell: "runs disagree", "1 run a side", ...
const char* short_text(Unjudged u);

}  // namespace glint::engine
