// engine/tiers/client_metrics.hpp: the glint::Metric columns (source "client") of GLINT_BENCH,
// glint::iter / iter_batched and bench_case rows; each row carries its own amounts.
// rate: amount / median seconds per iteration -> "<unit>/s" (not measured when a per-call
// median is below the clock bracket's resolution); level: amount as is -> "<unit>".
// They derive from the timing pass, so they need no counting pass of their own.
#pragma once

#include <cstddef>
#include <vector>

#include <glint/bench.hpp>

#include "catalog/metric.hpp"
#include "engine/model/row.hpp"

namespace glint::engine {

catalog::MetricDescriptor client_descriptor(const glint::Metric& metric);

// Cells of a row's client metrics; nan when there is no timing (an error row).
std::vector<catalog::MetricCell> client_cells(const std::vector<glint::Metric>& metrics,
                                              const TimingSummary* timing);

// Appends the descriptors of `metrics` not already in `family` (first-seen order); returns how
// many it appended.
std::size_t merge_client_family(std::vector<catalog::MetricDescriptor>& family,
                                const std::vector<glint::Metric>& metrics);

// An iter row's metrics: the registration's, each replaced by the iter's metric of the same
// column (client_descriptor's name: a unit and a mode), then the iter's other metrics.
std::vector<glint::Metric> merged_metrics(std::vector<glint::Metric> registration,
                                          const std::vector<glint::Metric>& own);

}  // namespace glint::engine
