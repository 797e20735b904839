// BenchRun's columns (bench_run.hpp): the run's catalog as bodies declare client metrics, the
// JSON columns, and each table's visible columns.
#include <algorithm>
#include <cstdio>

#include "catalog/selection.hpp"
#include "engine/model/sanitize.hpp"
#include "engine/runner/bench/bench_run.hpp"
#include "engine/tiers/client_metrics.hpp"

namespace glint::engine {

void BenchRun::announce_columns() {
    if (observer_) observer_->columns_known(json_columns());
}

std::vector<catalog::MetricDescriptor> BenchRun::json_columns() const {
    const std::vector<std::string>& selection = tiers_.selection();
    std::vector<catalog::MetricDescriptor> columns;
    for (const auto& d : catalog_) {
        const bool named = std::find(selection.begin(), selection.end(), d.name) != selection.end();
        if (d.available || named) columns.push_back(d);
    }
    return columns;
}

// The phase 1 table's columns: the selected registrations' client metrics and the iters' so far.
std::vector<catalog::MetricDescriptor> BenchRun::phase1_columns() const {
    MetricLists metrics{&iter_metrics_};
    for (const auto& r : registrations())
        if (filter_.may_select_under(r.name)) metrics.push_back(&r.metrics);
    return visible_columns(metrics);
}

// New columns join the catalog (announced: the JSON's) and, when a column shows, the phase 1 table.
void BenchRun::client_metrics(const std::vector<glint::Metric>& metrics) {
    if (merge_client_family(catalog_, metrics) > 0) announce_columns();
    std::vector<catalog::MetricDescriptor> known;
    merge_client_family(known, iter_metrics_);
    bool grew = false;
    for (const auto& m : metrics)
        if (merge_client_family(known, {m}) > 0) {
            iter_metrics_.push_back(m);
            grew = true;
        }
    if (!grew || !phase1_table_open_ || !body_.registration) return;
    std::vector<catalog::MetricDescriptor> columns = phase1_columns();
    if (std::equal(columns.begin(), columns.end(), phase1_table_columns_.begin(),
                   phase1_table_columns_.end(),
                   [](const auto& a, const auto& b) { return a.name == b.name; }))
        return;  // e.g. a column a registration already showed
    phase1_table_columns_ = columns;
    table_.columns_grew(columns);
}

std::vector<catalog::MetricDescriptor> BenchRun::visible_columns(
    const MetricLists& case_metrics, const std::vector<const Row*>& rows) const {
    std::vector<catalog::MetricDescriptor> used;
    for (const auto& d : catalog_) {
        if (d.source != "client") {
            used.push_back(d);
            continue;
        }
        const bool in_group =
            std::any_of(case_metrics.begin(), case_metrics.end(),
                        [&](const auto* list) {
                            return std::any_of(list->begin(), list->end(),
                                               [&](const glint::Metric& m) {
                                                   return client_descriptor(m).name == d.name;
                                               });
                        }) ||
            std::any_of(rows.begin(), rows.end(),
                        [&](const Row* r) { return r->cell(d.name) != nullptr; });
        if (in_group) used.push_back(d);
    }
    return catalog::select_metrics(used, tiers_.selection()).visible;
}

void BenchRun::warn_unmatched_selectors() const {
    for (const auto& s : catalog::select_metrics(catalog_, tiers_.selection()).unmatched)
        std::fprintf(
            stderr,
            "glint: warning: --metrics selector '%s' matches no metric (see --list-metrics)\n",
            sanitize::terminal(s).c_str());
}

}  // namespace glint::engine
