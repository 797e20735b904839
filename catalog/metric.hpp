// catalog/metric.hpp: the data model every reporter renders. Pure data; knows no OS.
//
// A tier contributes a family of MetricDescriptors (what it can produce, whether it is
// available on this run and why not) and, per row, MetricCells (the values). The table, the
// listing and the JSON know only these two types.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace glint::catalog {

// How a value renders: ratio "1.83", count "4.10k" (SI suffixes), percent "2.31%", change
// "+2.31%" (signed; "percent" in JSON), nanoseconds a time in time units ("5.1µs"; "ns" in JSON).
enum class Format { ratio, count, percent, change, nanoseconds };

// quantitative: near-zero perturbation, safe to headline. diagnostic: explains a result.
enum class MetricClass { quantitative, diagnostic };

std::string_view to_string(Format format);
std::string_view to_string(MetricClass cls);

inline constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

struct MetricDescriptor {
    std::string name;    // stable id, the --metrics/--sort-by selector and the JSON key
    std::string header;  // column label
    Format format = Format::count;
    MetricClass cls = MetricClass::diagnostic;
    std::string source;  // "client" | "perf" | "tier0" | "syscall" | "raw" | "pfm"
    bool available = false;
    bool is_default = false;  // shown without --metrics
    std::string reason;       // why not available (empty when available)
};

// What a value says beside its number, for a table that colours: better or worse than before
// (a confident verdict: vs base faster or slower); neutral for everything else.
enum class Tone { neutral, better, worse };

struct MetricCell {
    std::string name;
    std::string header;
    double value = kNotMeasured;  // nan: not measured -> "—" in the table, null in JSON
    Format format = Format::count;
    MetricClass cls = MetricClass::diagnostic;
    bool estimated = false;  // multiplex-scaled: "≈" in the table, listed in estimatedMetrics
    Tone tone = Tone::neutral;

    bool measured() const { return !std::isnan(value); }
};

// A cell for `descriptor` holding `value`.
MetricCell make_cell(const MetricDescriptor& descriptor, double value, bool estimated = false);

}  // namespace glint::catalog
