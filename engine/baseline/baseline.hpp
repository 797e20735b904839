// engine/baseline/baseline.hpp: --bench-baseline=FILE, a committed --bench-json document that
// this run's rows are compared against, with glint-compare's code (engine/compare/).
//
// Rows match by identity (registration, name, sorted labels; name and labels alone against a
// document that predates registrations). Each measured row gains one cell (source
// "baseline"): `base-change`, the change against the baseline's row in percent, signed (the
// verdict's point estimate, compare/verdict.hpp; — for a row the baseline lacks, an error row on
// either side, or an unresolved per-call median). After the tables the run prints the comparison
// glint-compare would print (verdict per row, summary, the --fail-if-slower gate).
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/compare/compare.hpp"
#include "engine/compare/compare_report.hpp"
#include "engine/model/json.hpp"
#include "engine/model/row.hpp"

namespace glint::engine {

struct Baseline {
    RunDocument document;
    CompareReportOptions options;                        // --threshold, --fail-if-slower
    std::unordered_map<std::string, std::size_t> index;  // identity key -> document.rows index
    const DocumentRow* find(const Row& row) const;
};

// Reads and checks a schema-2 document (or several runs of one build, comma-separated: a
// regular file of at most kMaxDocumentBytes each; a FIFO or a device is refused before it is
// read). On failure returns nullopt and sets `error` to one line naming the problem
// (unreadable, not a regular file, too large, not JSON, too deep, wrong schema, no rows, a
// duplicate row).
std::optional<Baseline> load_baseline(const std::string& path, CompareReportOptions options,
                                      std::string& error);
// The same over one document already read (`path` names it in messages).
std::optional<Baseline> baseline_from_text(const std::string& text, const std::string& path,
                                           CompareReportOptions options, std::string& error);

// The column descriptor (available, default: asking for a baseline is asking for it).
std::vector<catalog::MetricDescriptor> baseline_family();

// The cells of `row` against `baseline`: the change in %, toned better/worse when the verdict
// is faster/slower.
std::vector<catalog::MetricCell> baseline_cells(const Baseline& baseline, const Row& row);

// The run header's line: the file, its host, and what the column means.
std::string baseline_header(const Baseline& baseline);

// This run's rows compared with the baseline, as glint-compare compares two documents.
class BaselineComparison {
  public:
    BaselineComparison(const Baseline& baseline, const std::vector<Row>& rows);
    BaselineComparison(const BaselineComparison&) = delete;
    BaselineComparison& operator=(const BaselineComparison&) = delete;

    const Comparison& comparison() const { return comparison_; }
    // The table, summary and gate lines (box or md).
    std::string text(CompareFormat format) const;
    bool gate_failed() const { return comparison_.gate_failed(); }
    // The gate's exit status (Comparison::gate_status): 0 passed or no gate, 1 failed, 3 unjudged.
    int gate_status() const { return comparison_.gate_status(baseline_.options.allow_unjudged); }
    // JSON meta.baseline: the file, its host, how many rows matched, and the comparison.
    Json meta() const;

  private:
    const Baseline& baseline_;
    RunDocument run_;
    Comparison comparison_;
};

}  // namespace glint::engine
