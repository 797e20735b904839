// engine/compare/compare.hpp: a series of --bench-json documents compared row by row, the first
// one the base: what glint-compare prints and what --bench-baseline adds to a run.
//
// Rows match by identity (document.hpp): registration, name and labels when both documents
// carry registrations, name and labels alone (with a note) when either predates them. Each row
// of the base gets one Change per later document (verdict.hpp); rows only in a later document
// follow the base's rows, in first-seen order. A row that cannot be compared (absent on one
// side, an error row, a per-call median below the clock's bracket) has verdict unavailable and
// a reason. The gate judges rows both sides measured: an error or unresolved row is not judged;
// a row only one side has (a benchmark added or removed) is counted, not gated, unless no row
// was compared at all (then nothing was judged).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/compare/document.hpp"
#include "engine/compare/verdict.hpp"

namespace glint::engine {

struct RowChange {
    const DocumentRow* row = nullptr;   // in the later document; null when absent there
    std::optional<Change> change;       // set when both sides were compared
    std::string reason;                 // why not ("only in base", "new", "error", "unresolved")
    std::optional<GateJudgement> gate;  // with a gate, for a row the gate counts (verdict.hpp)
};

struct ComparedRow {
    const DocumentRow* base = nullptr;  // null for a row only later documents have
    std::string identity;               // identity_text of whichever side has it
    std::vector<RowChange> changes;     // one per later document
};

struct SeriesSummary {
    std::size_t faster = 0, slower = 0, same = 0, noisy = 0, unavailable = 0;
    std::size_t compared = 0;                     // rows with a ratio
    double geomean_ratio = 0;                     // exp(mean(log ratio)) over them; nan when none
    std::vector<std::string> slower_beyond_gate;  // identities failing --fail-if-slower
    std::size_t gate_passed = 0;                  // rows the gate judged within it
    struct UnjudgedRow {
        std::string identity, reason;  // reason: to_string(Unjudged) or RowChange::reason
    };
    std::vector<UnjudgedRow> gate_unjudged;   // rows the gate could not judge
    std::size_t only_in_base = 0, added = 0;  // rows one side lacks (not gated)
};

// The gate's counts summed over every later document.
struct GateTotals {
    std::size_t passed = 0, failed = 0, unjudged = 0, compared = 0, only_in_base = 0, added = 0;
};

struct Comparison {
    std::vector<const RunDocument*> documents;  // [0] is the base
    std::vector<ComparedRow> rows;
    std::vector<SeriesSummary> summaries;  // one per later document
    std::vector<std::string> notes;        // e.g. matching without registrations
    // Documents measured apart: different hosts, CPU models, build types or glint versions.
    std::vector<std::string> warnings;
    std::optional<double> gate;  // --fail-if-slower as a fraction
    bool gate_failed() const;    // a row slower beyond the gate
    GateTotals gate_totals() const;
    // The gate: failed when a row failed; else passed with allow_unjudged; else unjudged when a
    // row could not be judged or none was compared; else passed. nullopt without a gate.
    std::optional<GateOutcome> gate_outcome(bool allow_unjudged) const;
    // The exit status it means: 0 passed (or no gate), 1 failed, 3 unjudged.
    int gate_status(bool allow_unjudged) const;
};

// `documents` (at least 2) must outlive the result. `gate` is --fail-if-slower as a fraction
// (nullopt: no gate).
Comparison compare_documents(const std::vector<const RunDocument*>& documents,
                             const CompareSettings& settings, std::optional<double> gate);

// "'new.json' comes from another host ('a' vs 'b') ...": one line per field that differs between
// the base and a later document (both known); empty when none.
std::vector<std::string> provenance_warnings(const RunDocument& base, const RunDocument& later);

// One row against one base row (both may be null): the RowChange compare_documents makes.
RowChange compare_rows(const DocumentRow* base, const DocumentRow* next,
                       const CompareSettings& settings);

}  // namespace glint::engine
