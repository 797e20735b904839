// libFuzzer target: the --bench-baseline reader over arbitrary documents (the JSON parser and
// the schema checks behind it: engine/compare/document). It must return a baseline or one line
// naming the problem; the comparison must take any row it accepted.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/baseline/baseline.hpp"

using namespace glint::engine;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string error;
    const auto baseline = baseline_from_text(text, "fuzz.json", CompareReportOptions{}, error);
    if (!baseline) {
        if (error.empty() || error.find('\n') != std::string::npos) __builtin_trap();
        return 0;
    }
    std::vector<Row> rows;
    for (const DocumentRow& d : baseline->document.rows) {  // this run measured every row again
        Row row;
        row.registration = d.registration;
        row.name = d.name;
        row.labels = d.labels;
        row.timing = TimingSummary{};
        row.timing->samples = 2;
        row.timing->median_ns = 1;
        row.timing->sample_ns = {1, 2};
        row.timing->repetition_median_ns = {1};
        (void)baseline_cells(*baseline, row);
        rows.push_back(std::move(row));
    }
    (void)baseline_header(*baseline);
    const BaselineComparison comparison(*baseline, rows);
    (void)comparison.text(CompareFormat::box);
    (void)comparison.meta();
    return 0;
}
