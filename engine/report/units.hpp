// engine/report/units.hpp: how one value becomes the text of one table cell.
//
// Times (nanoseconds in): ns with 2 decimals ("11.48ns", "391.00ns"); µs, ms and s with 1
// decimal ("1.5µs", "236.8µs", "1.8ms"). The unit switches at 1000 of the smaller unit, after
// rounding (999.996ns prints "1.0µs", never "1000.00ns"); seconds are the largest unit.
//
// Metric cells follow catalog::Format: count -> SI suffix, 2 decimals ("4.10k", "166.96M"; T
// is the largest); ratio -> 2 decimals ("1.83"); percent -> percentage points, 2 decimals
// ("2.31%" for 2.31 %); change -> the same, signed ("+2.31%"); nanoseconds -> a time as above
// ("5.1µs", never "5.11k"). "≈" prefixes a multiplex-scaled cell; not measured (NaN, an
// infinity) renders "—", never 0.
#pragma once

#include <string>

#include "catalog/metric.hpp"
#include "engine/model/row.hpp"

namespace glint::engine::report {

inline constexpr const char* kNotMeasuredText = "—";

std::string format_time_ns(double ns);
std::string format_count(double value);
std::string format_metric(const catalog::MetricCell& cell);
// A change in percent, signed ("+9.50%", "-3.10%", "0.00%"): --bench-baseline's vs base and
// glint-compare's change columns alike.
std::string format_signed_percent(double percent, int decimals);

// The n column: samples×iterations ("32×16777216"); a per-call case shows the sample count.
std::string format_n(const TimingSummary& timing);
// The median/iter column: the headline median and its ± (TimingSummary::printed_spread_ns:
// the estimator's spread, else the MAD) in one cell ("11.48ns ±0.02ns").
std::string format_median_mad(const TimingSummary& timing);
// A min or max cell: a per-call time below the clock bracket renders as the bound "<20.00ns".
std::string format_sample_ns(const TimingSummary& timing, double ns);

}  // namespace glint::engine::report
