// engine/tiers/client_metrics.hpp: the bench_case Metric columns (source "client").
// rate: amount / median seconds per iteration -> "<unit>/s" (not measured when a per-call
// median is below the clock bracket's resolution); level: amount as is -> "<unit>".
// They derive from the timing pass, so they need no counting pass of their own.
#pragma once

#include <vector>

#include <glint/bench.hpp>

#include "catalog/metric.hpp"
#include "engine/model/row.hpp"

namespace glint::engine {

catalog::MetricDescriptor client_descriptor(const glint::Metric& metric);

// Cells of a row's client metrics; nan when there is no timing (an error row).
std::vector<catalog::MetricCell> client_cells(const std::vector<glint::Metric>& metrics,
                                              const TimingSummary* timing);

// Appends the descriptors of `metrics` not already in `family` (first-seen order).
void merge_client_family(std::vector<catalog::MetricDescriptor>& family,
                         const std::vector<glint::Metric>& metrics);

}  // namespace glint::engine
