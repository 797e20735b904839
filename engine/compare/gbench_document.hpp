// engine/compare/gbench_document.hpp: a Google Benchmark JSON document (context + benchmarks,
// as its --benchmark_out writes) read as one side of a comparison: a team's existing baseline.
//  - Rows of one run_name (its repetitions) form one row: each repetition's real_time is a
//    repetition median and a sample, the row's median their median. Aggregate rows are skipped
//    (recomputed from the repetitions); without repetitions a row has one value and no samples,
//    which the side's description says (verdicts then rest on the other side's spread).
//  - Identity: registration and name are the benchmark's name, a threads count above 1 is the
//    label threads (as glint's drop-in names its instances); bytes_per_second and
//    items_per_second become B/s and item/s.
//  - error_occurred rows are error rows with their error_message.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/compare/document.hpp"

namespace glint::engine {

// Whether `doc` has Google Benchmark's shape (an object with a "benchmarks" array).
bool is_google_benchmark_document(const nlohmann::json& doc);

// On failure returns nullopt and sets `error` to one line naming the file and the problem.
std::optional<RunDocument> parse_google_benchmark_document(const nlohmann::json& doc,
                                                           const std::string& path,
                                                           std::string& error);

}  // namespace glint::engine
