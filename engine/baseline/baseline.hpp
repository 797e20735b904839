// engine/baseline/baseline.hpp: --bench-baseline=FILE, a committed --bench-json document that
// this run's rows are compared against.
//
// Rows match by name and sorted labels (the identity JSON rows carry). Each measured row gains
// two cells (source "baseline"): `base-change`, the median's change against the baseline's in
// percent, and `base-p`, the Mann–Whitney p-value of the two runs' per-sample times (small:
// the difference is beyond sample noise). A row the baseline lacks, an error row on either
// side, or a side without samples gives — (null), never 0.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/model/json.hpp"
#include "engine/model/row.hpp"

namespace glint::engine {

struct BaselineRow {
    double median_ns = 0;
    std::vector<double> sample_ns;
};

struct Baseline {
    std::string path;
    Json meta;                                  // the baseline's own meta (host, compiler, ...)
    std::map<std::string, BaselineRow> rows;    // by row_key; error and unresolved rows left out
};

// The identity of a row: its name and sorted labels.
std::string row_key(const std::string& name, const Labels& sorted_labels);

// A baseline is a regular file of at most this size (a FIFO, a device or a larger file is
// refused before it is read).
inline constexpr std::size_t kMaxBaselineBytes = std::size_t{256} << 20;

// Reads and checks a schema-2 document. On failure returns nullopt and sets `error` to one line
// naming the problem (unreadable, not a regular file, too large, not JSON, wrong schema, no
// rows).
std::optional<Baseline> load_baseline(const std::string& path, std::string& error);
// The same over a document already read (`path` names it in messages).
std::optional<Baseline> baseline_from_text(const std::string& text, const std::string& path, std::string& error);

// The two column descriptors (available, default: asking for a baseline is asking for them).
std::vector<catalog::MetricDescriptor> baseline_family();

// The two cells of `row` against `baseline`.
std::vector<catalog::MetricCell> baseline_cells(const Baseline& baseline, const Row& row);

// The run header's line: the file, its host, and what the two columns mean.
std::string baseline_header(const Baseline& baseline);

// JSON meta.baseline: the file, its host and how many rows matched.
Json baseline_meta(const Baseline& baseline, const std::vector<Row>& rows);

}  // namespace glint::engine
