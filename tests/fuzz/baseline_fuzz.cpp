// libFuzzer target: the --bench-baseline reader over arbitrary documents (the JSON parser and
// the schema checks behind it). It must return a baseline or one line naming the problem; the
// comparison must take any row it accepted.
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/baseline/baseline.hpp"

using namespace glint::engine;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string error;
    const auto baseline = baseline_from_text(text, "fuzz.json", error);
    if (!baseline) {
        if (error.empty() || error.find('\n') != std::string::npos) __builtin_trap();
        return 0;
    }
    Row row;
    row.name = baseline->rows.empty() ? "x" : "probe";
    row.timing = TimingSummary{};
    row.timing->samples = 2;
    row.timing->median_ns = 1;
    row.timing->sample_ns = {1, 2};
    (void)baseline_cells(*baseline, row);
    (void)baseline_header(*baseline);
    (void)baseline_meta(*baseline, {row});
    return 0;
}
