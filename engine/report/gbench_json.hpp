// engine/report/gbench_json.hpp: a glint document (schema 2) as Google Benchmark's JSON
// (context + benchmarks), the form its tools/compare.py and dashboards read.
//  - A row becomes one run: real_time is glint's median per iteration, cpu_time the median of
//    its CPU samples (null when none was read), iterations all the
//    iterations it timed. Client metrics become counters (B/s: bytes_per_second, item/s:
//    items_per_second, X/s: X, a level X: X).
//  - A repeated run (--bench-repeat) gives one run per repetition (its median; cpu_time scaled
//    by the row's CPU/wall ratio, said in context.glint_notes) and the aggregates mean, median,
//    stddev and cv over them.
//  - An error row: error_occurred and error_message, no times. Names: a drop-in instance keeps
//    its own (rows); a native row is registration[/name] then /key:value per label.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace glint::engine {

struct GbJsonOptions {
    struct Instance {  // a drop-in instance, by its name
        int family_index = 0;
        int per_family_index = 0;
        int threads = 1;
        std::string unit;  // "": default_unit
    };
    std::map<std::string, Instance> rows;
    std::string executable;
    std::string default_unit = "ns";  // ns, us, ms or s
    std::vector<std::pair<std::string, std::string>> context;
};

// Throws std::runtime_error naming the problem when `glint_document` is not a glint document.
std::string google_benchmark_json(std::string_view glint_document, const GbJsonOptions& options);

}  // namespace glint::engine
