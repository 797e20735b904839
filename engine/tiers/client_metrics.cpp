#include "engine/tiers/client_metrics.hpp"

#include <algorithm>
#include <cmath>

namespace glint::engine {

catalog::MetricDescriptor client_descriptor(const glint::Metric& metric) {
    catalog::MetricDescriptor d;
    d.name = metric.mode == glint::Metric::rate ? metric.unit + "/s" : metric.unit;
    d.header = d.name;
    d.format = catalog::Format::count;
    d.cls = catalog::MetricClass::quantitative;
    d.source = "client";
    d.available = true;
    d.is_default = true;
    return d;
}

std::vector<catalog::MetricCell> client_cells(const std::vector<glint::Metric>& metrics,
                                              const TimingSummary* timing) {
    std::vector<catalog::MetricCell> cells;
    for (const auto& m : metrics) {
        double value = catalog::kNotMeasured;
        if (m.mode == glint::Metric::level) {
            value = m.amount;
        } else if (m.mode == glint::Metric::clock) {
            if (timing && timing->median_resolved()) value = m.amount * timing->median_ns;
        } else if (m.mode == glint::Metric::in_unit) {
            if (timing && std::isfinite(timing->per_unit)) value = m.amount * timing->per_unit;
        } else if (timing && timing->median_ns > 0 && timing->median_resolved()) {
            value = m.amount / (timing->median_ns * 1e-9);
        }
        if (!timing) value = catalog::kNotMeasured;
        cells.push_back(catalog::make_cell(client_descriptor(m), value, m.estimated));
    }
    return cells;
}

std::size_t merge_client_family(std::vector<catalog::MetricDescriptor>& family,
                                const std::vector<glint::Metric>& metrics) {
    const std::size_t before = family.size();
    for (const auto& m : metrics) {
        auto d = client_descriptor(m);
        const bool known = std::any_of(family.begin(), family.end(),
                                       [&](const auto& f) { return f.name == d.name; });
        if (!known) family.push_back(std::move(d));
    }
    return family.size() - before;
}

std::vector<glint::Metric> merged_metrics(std::vector<glint::Metric> registration,
                                          const std::vector<glint::Metric>& own) {
    for (const auto& m : own) {
        const std::string column = client_descriptor(m).name;
        const auto same = std::find_if(
            registration.begin(), registration.end(),
            [&](const glint::Metric& r) { return client_descriptor(r).name == column; });
        if (same != registration.end()) *same = m;
        else registration.push_back(m);
    }
    return registration;
}

}  // namespace glint::engine
