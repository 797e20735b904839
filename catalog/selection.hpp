// catalog/selection.hpp: --metrics column selection over the catalog.
//
// Selectors are comma-separated: exact names, *-globs ("cache-*"), or "all". No selectors
// means the default columns — including a default that is unavailable on this run (a dropped
// LLC pair renders —); a tier marks columns it omits entirely as not default. An explicitly named
// column that is unavailable stays visible (rendering "—") so a run never silently drops what was
// asked for; globs and "all" pick available columns only. A selector that matches nothing is
// reported back for a warning.
#pragma once

#include <string>
#include <vector>

#include "catalog/metric.hpp"

namespace glint::catalog {

struct Selection {
    std::vector<MetricDescriptor> visible;  // in catalog order
    std::vector<std::string> unmatched;     // selectors that matched no metric
};

Selection select_metrics(const std::vector<MetricDescriptor>& catalog,
                         const std::vector<std::string>& selectors);

// True when `selectors` name (exactly, by glob, or via "all") some metric of `source` in
// `catalog`: the runner opens a tier when its columns are asked for.
bool selects_source(const std::vector<MetricDescriptor>& catalog,
                    const std::vector<std::string>& selectors, const std::string& source);

}  // namespace glint::catalog
