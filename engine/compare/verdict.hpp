// engine/compare/verdict.hpp: the verdict on one row measured twice (a base and a new side).
// Pure functions of the two sides' numbers.
//
// The change is the ratio of the headline medians (new / base). Its confidence interval, at
// `level` (95%), is Moses' rank interval of the shift of log(repetition medians) (see
// engine/stats/shift.hpp), so run-to-run drift inside each run (interleaved repetitions, A, B,
// C, A, B, C, ...) widens it; thousands of per-call samples never narrow it. Verdict against
// the practical threshold t (3%):
//   slower  the whole interval lies above +t      faster  the whole interval lies below -t
//   same    the change is within ±t and the interval is no wider than the band (2t): a change
//           of t would have shown
//   noisy   anything else: the interval straddles an edge of the band and is too wide to
//           resolve t, or the change is beyond t without confidence
// So a difference smaller than t reads "same" however small its p-value, and a large change
// reads slower or faster only when the repetitions agree on it.
//
// When a side has too few repetitions for the interval to reach `level` (fewer than 4 against
// 4, e.g. one run each), the interval comes from the per-sample times instead (thinned to 256
// evenly spaced order statistics per side): it says nothing about drift between runs, so the
// verdict is slower / faster only beyond a factor `single_run_factor` (4×: one run of a case on
// the development VM differed from another by up to 2.6× when the machine's load changed) and
// "noisy" otherwise, never "same".
//
// A side may be several runs of one build (run_medians: each run's median). Repetitions pooled
// across runs are not independent draws: every run shares its own machine state (load,
// frequency, placement), so a pooled interval can exclude 1 when the runs merely differ. A
// slower or faster verdict then also needs the runs to agree: Moses' interval of the shift of
// log(run medians) at `level` (4 runs against 4 reach 97.1%), or with too few runs for it their
// full range (every run of one side beyond every run of the other), must lie beyond the band
// too; otherwise the verdict is noisy (basis "runs"). The runs never make a verdict "same".
//
// Instructions per iteration, when both sides counted them exactly (a PMU, no multiplexing),
// are an anchor of their own: when time is noisy, a change of instructions beyond
// `instr_threshold` (1%) decides the verdict (more instructions: slower), basis "instructions".
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace glint::engine {

enum class Verdict { faster, slower, same, noisy, unavailable };
// What the verdict rests on.
enum class Basis { repetitions, samples, instructions, runs, none };

const char* to_string(Verdict v);
const char* to_string(Basis b);

struct CompareSettings {
    double threshold = 0.03;        // practical threshold, as a fraction (--threshold=PCT / 100)
    double instr_threshold = 0.01;  // instructions/iter anchor
    double level = 0.95;            // confidence of every interval
    double single_run_factor = 4.0; // a per-sample verdict needs the interval beyond ×4 or ÷4
    std::size_t thinned_samples = 256;
};

// One side of a comparison: a row of one run.
struct Side {
    double median_ns = 0;                    // the headline (median of repetition medians)
    std::vector<double> repetition_medians;  // one per repetition
    std::vector<double> samples_ns;          // samples of every repetition (thinned before use)
    std::vector<double> run_medians;         // each run's median, when the side is several runs
    std::optional<double> instructions;      // exact instructions per iteration, when counted
};

struct Change {
    double ratio = 0;           // new median / base median
    double low = 0, high = 0;   // the interval of the ratio (nan when none exists)
    double runs_low = 0, runs_high = 0;  // the interval between runs (nan unless a side is several)
    double instr_ratio = 0;     // new / base instructions per iteration (nan when not both)
    Verdict time = Verdict::unavailable;  // what time alone says
    Verdict verdict = Verdict::unavailable;
    Basis basis = Basis::none;
};

// The verdict of a ratio and its interval against the band ±threshold.
Verdict classify(double ratio, double low, double high, double threshold);

// The comparison of two measured sides (both medians finite and > 0).
Change compare_sides(const Side& base, const Side& next, const CompareSettings& settings);

// The gate: slower beyond `fraction` with confidence (the interval's low bound and the runs'
// when a side is several runs, or on the instructions basis the instructions' change, beyond it).
bool slower_beyond(const Change& change, double fraction);

}  // namespace glint::engine
