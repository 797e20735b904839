// engine/report/json_report.hpp: the --bench-json document (seed 001, schema 2) and how it
// reaches the disk.
//
// Document: {"schema": 2, "meta": <as given>, "columns": [...], "rows": [...]}.
//   columns: one object per descriptor: name, header, format ("ratio"|"count"|"percent"),
//     class ("quantitative"|"diagnostic"), source, available, default, and reason when the
//     metric is unavailable.
//   rows, in the order given (measurement order; never sorted or grouped): name, registration
//     (the GLINT_BENCH that measured it: with name and labels, the row's identity), labels (an
//     object sorted by key), samples, iterationsPerSample, perCall, medianNs, madNs, minNs,
//     maxNs, samplesNs (ns/iter: every sample in measurement order under SampleDetail::all;
//     by default at most kDocumentSamples evenly spaced order statistics of them, sorted, the
//     minimum and maximum kept -- what comparisons use -- with samplesNsThinned: true when that
//     dropped any), repetitionMediansNs (each --bench-repeat
//     repetition's median; one entry for a single run), the CPU-time and stability fields
//     (engine/report/stability_json.hpp), metrics (one member per column, by catalog
//     name, then any further cell the row carries; null when not measured), estimatedMetrics
//     (only when non-empty), countIterations (only when a counting pass ran), the fields tiers
//     add (Row::extra_fields: profile under --profile), error (only on error rows). An error row keeps name and labels and has every timing field null.
// Numbers follow Json's contract: integral values print as integers, others with 6
// significant digits, NaN as null.
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
