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
//     maxNs, samplesNs (every sample, ns/iter), repetitionMediansNs (each --bench-repeat
//     repetition's median; one entry for a single run), metrics (one member per column, by catalog
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

Json build_document(const Json& meta, const std::vector<catalog::MetricDescriptor>& columns,
                    const std::vector<Row>& rows);

// The pieces of the document, for tests and for tools that stream rows.
Json column_json(const catalog::MetricDescriptor& column);
Json row_json(const Row& row, const std::vector<catalog::MetricDescriptor>& columns);

// Writes `doc` (indented, newline-terminated) to `path` + ".tmp.<pid>", flushes it to disk,
// then renames it over `path`, so an interrupted run never leaves a truncated baseline.
// Returns nullopt on success, otherwise a message naming the path and the system's reason
// (the temporary file is removed).
std::optional<std::string> write_json_atomically(const std::string& path, const Json& doc);
// The same for any text (--profile-folded); `what` names it in the message ("folded stacks").
std::optional<std::string> write_text_atomically(const std::string& path, const std::string& text,
                                                 const std::string& what);

// Whether `path` can be written, checked before measuring: its directory exists, is a
// directory and is writable, and `path` itself is not a directory. Returns nullopt when it
// can, otherwise a message naming the problem.
std::optional<std::string> check_writable(const std::string& path);

}  // namespace glint::engine
