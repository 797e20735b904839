// engine/runner/modes/info_modes.hpp: the informational modes (--list-metrics, --capabilities,
// --group-by=list) and the selector warnings that need the whole catalog.
#pragma once

#include <vector>

#include "catalog/metric.hpp"
#include "engine/cli/run_plan.hpp"
#include "engine/model/status.hpp"

namespace glint::engine {

// --group-by=list: the label keys the selected cases offer. Returns the exit status.
int print_group_keys(const CaseRun& cases);

// --list-metrics / --metrics=?: the catalog with class, source, availability and reason.
// Client metrics are discovered by running the bodies without measuring.
int print_metric_listing(const CaseRun& cases, std::vector<catalog::MetricDescriptor> catalog);

// --capabilities: each capability's state, reason and remedy.
int print_capabilities(const std::vector<Status>& capabilities);

}  // namespace glint::engine
