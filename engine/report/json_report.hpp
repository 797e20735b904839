// engine/report/json_report.hpp: the --bench-json document (schema 2) and how it reaches the
// disk.
//
// Document: {"schema": 2, "meta": <as given>, "columns": [...], "rows": [...]}: one column
// object per descriptor; rows in measurement order (never sorted or grouped), each with its
// identity (name, registration, labels), timing fields, metrics (null when not measured) and
// what tiers add; an error row keeps name and labels with every timing field null. Numbers
// follow Json's contract (integers as integers, others with 6 significant digits, NaN as null).
// Rationale and details: docs/rationale.md, "engine/report/json_report.hpp".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/model/json.hpp"
#include "engine/model/row.hpp"

namespace glint::engine {

inline constexpr int kJsonSchema = 2;

// The samples a document keeps per row by default: a document stays bounded however long a
// case ran (CompareSettings::thinned_samples thins to the same count, so verdicts are equal).
inline constexpr std::size_t kDocumentSamples = 256;
enum class SampleDetail { thinned, all };

Json build_document(const Json& meta, const std::vector<catalog::MetricDescriptor>& columns,
                    const std::vector<Row>& rows, SampleDetail detail = SampleDetail::thinned);

// The document reaches the disk through os::write_output (os/files.hpp): replaced by rename,
// written in place, or to a descriptor, as the target is.

// Labels as JSON: an object of key: value, in key order. Every document's "labels" is this.
Json labels_json(const Labels& labels);

// The pieces of the document, for tests and for tools that stream rows.
Json column_json(const catalog::MetricDescriptor& column);
Json row_json(const Row& row, const std::vector<catalog::MetricDescriptor>& columns,
              SampleDetail detail = SampleDetail::thinned);

}  // namespace glint::engine
