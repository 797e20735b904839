// engine/compare/compare_report.hpp: a Comparison as people and programs read it.
//
// Table (glint's box style, engine/report's renderer), for a base and one later document:
//   benchmark | base | new | change | 95% CI | reps | verdict  (+ instr when both sides counted
// instructions exactly); for a series each later document #k gets its own median, change,
// interval and verdict columns. change is the verdict's point estimate (verdict.hpp), signed, in
// percent, inside its interval; reps is each side's repetition count; a verdict resting on
// instructions reads "slower (instr)", one on too few repetitions' samples "noisy (1 rep)" or
// "noisy (3 reps: need 4+)". Below the table one summary line per later document: the
// geometric-mean change over the compared rows and the count of each verdict; then the gate.
// Markdown (--format=md) has the same cells; JSON (--format=json) the same numbers, unformatted.
#pragma once

#include <optional>
#include <string>

#include "engine/compare/compare.hpp"
#include "engine/model/json.hpp"

namespace glint::engine {

enum class CompareFormat { box, md, json };

struct CompareReportOptions {
    CompareSettings settings;
    std::optional<double> gate;  // --fail-if-slower, as a fraction
    // The table leaves out rows only the base has (a filtered run against a whole baseline),
    // with a line saying how many; the summary still counts them as not compared.
    bool hide_only_in_base = false;
    bool allow_unjudged = false;  // --allow-unjudged: rows the gate could not judge do not fail it
};

// The table (box or md) followed by the summary and gate lines, '\n'-terminated.
std::string render_comparison(const Comparison& c, const CompareReportOptions& options,
                              CompareFormat format);

// The JSON form (--format=json; also meta.baseline.comparison of a run).
Json comparison_json(const Comparison& c, const CompareReportOptions& options);

// One later document's summary line ("new.json vs base.json: geometric mean ...").
std::string summary_line(const Comparison& c, std::size_t later, const CompareSettings& settings);
// The gate's line: passed, FAILED (the rows) or COULD NOT JUDGE (reasons, counts, the fix);
// "" without a gate.
std::string gate_line(const Comparison& c, const CompareReportOptions& options);

// The text of a verdict cell for one change ("slower", "noisy (1 rep)", "only in base", ...).
std::string verdict_text(const RowChange& c);
// A fraction's change as percent text: 1.1234 -> "+12.34%"; nan -> "—".
std::string change_text(double ratio);

}  // namespace glint::engine
