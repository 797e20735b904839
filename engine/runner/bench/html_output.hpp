// engine/runner/bench/html_output.hpp: --bench-html=FILE, the run as the HTML report
// (report/html/): per row n, median, MAD, min, max and the visible metric columns of the run, and
// the plot of its samples; with --bench-baseline also the change, its interval and the verdict, and
// the baseline's samples overlaid in the plot; under each plot, what the run's extensions show for
// the row (TierSet::row_html: --profile's flame graph).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/baseline/baseline.hpp"
#include "engine/model/row.hpp"
#include "engine/stability/remedies.hpp"
#include "engine/tiers/tier_set.hpp"
#include "os/files.hpp"

namespace glint::engine {

// `columns`: the metric columns to show (those with a measured cell in some row are kept);
// `notes`: lines under the title (the run header); `done`: what the run did about noise (the
// unstable rows' remedies leave it out). Returns the error line on failure.
std::optional<std::string> write_run_html(const os::OutputTarget& target,
                                          const std::vector<Row>& rows,
                                          const std::vector<catalog::MetricDescriptor>& columns,
                                          const std::vector<std::string>& notes,
                                          const Baseline* baseline,
                                          const BaselineComparison* comparison,
                                          const TierSet& tiers, const RemedyContext& done);

}  // namespace glint::engine
