// engine/compare/compare_report.hpp: a Comparison as people and programs read it.
//
// Table (glint's box style, engine/report's renderer), for a base and one later document:
//   benchmark | base | new | HL change | <interval> | verdict or gate | reps or runs
// (+ instr when both sides counted instructions exactly). HL change is the verdict's point
// estimate (verdict.hpp), inside the interval beside it, which is the one the verdict used,
// headed by its level and basis ("95% CI, runs"; a per-sample one "interval, samples": never a
// level) or tagged per cell when rows differ. With a gate the verdict column is the gate's
// outcome for the row ("passed", "FAILED", "not judged: runs disagree"); runs replace reps when
// a side is several runs ("8/8 (2 out)": runs left out as disturbed). Below the table one
// summary line per later document, warnings (documents measured apart), notes, the gate.
#pragma once

#include <optional>
#include <string>

#include "engine/compare/compare.hpp"
#include "engine/model/json.hpp"

namespace glint::engine {

// Markdown (--format=md) has the same cells; JSON (--format=json) the same numbers, unformatted.
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
// The gate's cell for one row: "passed", "FAILED", "not judged: runs disagree", ...
std::string gate_text(const RowChange& c);
// What an interval rests on and its level: "runs 95%", "reps 95%", "runs 90%" (the coverage 3
// runs against 3 reach), "samples" (a per-sample interval: no level).
std::string interval_tag(const Change& c, const CompareSettings& settings);
// "3 run(s) left out as disturbed: g/x base run 3 (preempted), ...": "" when none was.
std::string dropped_note(const Comparison& c);
// A fraction's change as percent text: 1.1234 -> "+12.34%"; nan -> "—".
std::string change_text(double ratio);

}  // namespace glint::engine
