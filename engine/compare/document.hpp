// engine/compare/document.hpp: a --bench-json document (schema 2) as the comparison reads it,
// whether it comes from a file (glint-compare, --bench-baseline) or from the rows of this run.
//
// A row's identity is its registration (the GLINT_BENCH name that measured it), its name and
// its sorted labels: two registrations that each have a case "impl" are two rows. Documents
// written before rows carried "registration" are read too; matching then uses name and labels
// (compare.hpp says when). Two rows of one document with one identity are an error: neither
// could be compared.
//
// Files are parsed by the one JSON reader (engine/model/json_reader.hpp): too deep a nesting
// is an error, never a crash. Rows are matched by identity in hash tables: linear in rows.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/compare/runs.hpp"
#include "engine/model/json_limits.hpp"
#include "engine/model/row.hpp"

namespace glint::engine {

// A document is a regular file of at most this size (a FIFO, a device or a larger file is
// refused before it is read: os::read_regular_file).
inline constexpr std::size_t kMaxDocumentBytes = std::size_t{256} << 20;

struct DocumentColumn {
    std::string name, header, format;  // as in the document's "columns"
};

struct DocumentRow {
    std::string registration;  // "" in documents that predate it
    std::string name;
    Labels labels;  // sorted by key
    std::optional<std::string> error;
    bool per_call = false;
    bool resolved = true;            // false: a per-call median below the clock's bracket (a bound)
    double median_ns = 0;            // nan when absent (error rows)
    std::vector<double> samples_ns;  // the samples the document kept (nan dropped)
    std::vector<double> repetition_medians_ns;  // one per repetition ({median} when absent)
    std::vector<std::pair<std::string, double>> metrics;  // by catalog name; nan when null
    std::vector<std::string> estimated;                   // multiplex-scaled metric names
    std::vector<std::string> unstable;   // rows[].unstable; merged: every run's, first seen first
    std::size_t unstable_runs = 0;       // the runs of the side that marked the row unstable
    std::vector<double> cpu_samples_ns;  // samplesCpuNs: CPU time of each sample (nan dropped)
    // Each run of the side, as the verdict weighs it (runs.hpp): one for a single document,
    // one per document merged (merge_runs).
    std::vector<RunEvidence> runs;

    // Exact instructions per iteration ("instr", not scaled), when counted.
    std::optional<double> instructions() const;
    double metric(std::string_view metric_name) const;  // nan when absent
};

struct RunDocument {
    std::string path;                // the file, or a description ("this run")
    std::string host;                // meta.host ("" when absent)
    std::string cpu_model;           // meta.cpu ("" when absent)
    std::string glint_version;       // meta.glint ("" when absent)
    std::string build;               // "optimized", "unoptimized" (meta.build), "" when absent
    std::vector<std::string> files;  // the file of each run of the side (merge_runs), in order
    std::vector<std::pair<std::string, std::string>>
        reasons;                    // meta.stability.reasons: code, meaning
    bool has_registrations = true;  // every row carries "registration"
    std::vector<DocumentColumn> columns;
    std::vector<DocumentRow> rows;
};

// The identity as a map key (with or without the registration) and as text for people:
// the row's display name (model/row.hpp: "registration/name [key=value,...]").
std::string identity_key(const DocumentRow& row, bool with_registration);
std::string identity_text(const DocumentRow& row);

// Reads `path` (a regular file up to kMaxDocumentBytes) and parses it. On failure returns
// nullopt and sets `error` to one line naming the file, the problem and the fix.
std::optional<RunDocument> read_document(const std::string& path, std::string& error);
// The same over text already read (`path` names it in errors).
std::optional<RunDocument> parse_document(std::string_view text, const std::string& path,
                                          std::string& error);

// Several runs of one build as one side of a comparison (`paths`: "a1.json,a2.json"): each
// row's repetition medians and samples are those of every run, in order, its median the median
// of them all, an error in any run makes it an error row; counters come from the first run that
// has the row; `runs` holds each run's own evidence (the runs' level, for the verdict). Drift
// between the runs then widens the interval as drift between repetitions does. Runs alternated
// with the other side's (a, b, a, b, ...) share the machine's moods.
RunDocument merge_runs(std::vector<RunDocument> runs);

// The files of one side: "a.json" or "a1.json,a2.json,..." (a path that exists is never split).
std::vector<std::string> side_files(const std::string& argument);

// Reads every file of one side and merges them (the error names the file at fault; one that
// does not fit in memory is an error too: out_of_memory).
std::optional<RunDocument> read_side(const std::string& argument, std::string& error);
// "WHAT does not fit in the memory this process may use (the address-space limit ...)".
std::string out_of_memory(const std::string& what);

// This run's rows as a document (rows in order; no columns).
DocumentRow document_row(const Row& row);
RunDocument document_of_rows(const std::vector<Row>& rows, std::string description);

// The first identity two rows share, as text; nullopt when every identity is unique.
std::optional<std::string> duplicate_identity(const RunDocument& doc);

}  // namespace glint::engine
