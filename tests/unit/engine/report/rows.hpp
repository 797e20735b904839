// tests/unit/engine/report/rows.hpp: rows and columns for the reporter tests.
#pragma once

#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/model/row.hpp"

namespace glint::engine::report::testing {

inline TimingSummary batched(std::uint64_t samples, std::uint64_t iterations, double median,
                             double mad, double min, double max) {
    TimingSummary t;
    t.samples = samples;
    t.iterations_per_sample = iterations;
    t.per_call = false;
    t.median_ns = median;
    t.mad_ns = mad;
    t.min_ns = min;
    t.max_ns = max;
    return t;
}

inline TimingSummary per_call(std::uint64_t samples, double median, double mad, double min,
                              double max) {
    TimingSummary t = batched(samples, 1, median, mad, min, max);
    t.per_call = true;
    return t;
}

inline Row timed_row(std::string name, TimingSummary timing,
                     std::vector<catalog::MetricCell> cells = {}) {
    Row row;
    row.name = std::move(name);
    row.timing = std::move(timing);
    row.cells = std::move(cells);
    return row;
}

// A measured row the verdict marked unstable for `reasons` (engine/stability/verdict.hpp).
inline Row unstable_row(std::string name, TimingSummary timing, std::vector<std::string> reasons,
                        std::vector<catalog::MetricCell> cells = {}) {
    Row row = timed_row(std::move(name), std::move(timing), std::move(cells));
    row.stability = CaseStability{{0}, 0, 0, std::move(reasons), {}};
    return row;
}

inline Row error_row(std::string name, std::string message) {
    Row row;
    row.name = std::move(name);
    row.error = std::move(message);
    return row;
}

inline catalog::MetricDescriptor metric(std::string name, std::string header,
                                        catalog::Format format, bool available = true) {
    catalog::MetricDescriptor d;
    d.name = std::move(name);
    d.header = std::move(header);
    d.format = format;
    d.cls = catalog::MetricClass::diagnostic;
    d.source = "perf";
    d.available = available;
    d.is_default = available;
    if (!available) d.reason = "not supported by this PMU";
    return d;
}

inline std::string lines_to_text(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& line : lines) out += line + "\n";
    return out;
}

}  // namespace glint::engine::report::testing
