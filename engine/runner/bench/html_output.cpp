#include "engine/runner/bench/html_output.hpp"

#include <cmath>
#include <limits>
#include <map>

#include "engine/compare/compare_html.hpp"
#include "engine/model/not_measured.hpp"
#include "engine/model/unstable_codes.hpp"
#include "engine/report/html/html_report.hpp"
#include "engine/report/units.hpp"
#include "engine/stability/unstable_legend.hpp"

namespace glint::engine {
namespace {

namespace html = report::html;

html::Cell cell(std::string text, double sort) {
    return {.text = std::move(text), .sort = sort, .has_sort = true};
}

// The median of an unstable row reads "~" with its reasons' codes, as the table's does (the
// legend's meanings as the tooltip).
html::Cell median_cell(const Row& row, const TimingSummary& t) {
    html::Cell median = cell(report::format_sample_ns(t, t.median_ns), t.median_ns);
    if (!row.stability || row.stability->unstable.empty()) return median;
    median.unstable = row.stability->unstable;
    median.unstable_title = "unstable: ";
    for (std::size_t i = 0; i < median.unstable.size(); ++i)
        median.unstable_title += (i ? ", " : "") + code_of_reason(median.unstable[i]) + " (" +
                                 describe_reason(median.unstable[i]) + ")";
    return median;
}

}  // namespace

std::optional<std::string> write_run_html(const os::OutputTarget& target,
                                          const std::vector<Row>& rows,
                                          const std::vector<catalog::MetricDescriptor>& columns,
                                          const std::vector<std::string>& notes,
                                          const Baseline* baseline,
                                          const BaselineComparison* comparison,
                                          const TierSet& tiers, const RemedyContext& done) {
    html::Report r;
    r.title = "glint run";
    r.notes = notes;
    for (auto& line : unstable_legend(rows, {}, done)) r.notes.push_back(std::move(line));
    r.columns = {{"n", "n", true},
                 {"median", "median/iter", true},
                 {"mad", "±", true},
                 {"min", "min", true},
                 {"max", "max", true}};
    std::vector<const catalog::MetricDescriptor*> shown;
    for (const auto& d : columns) {
        if (d.source == "baseline") continue;  // the change columns below say it
        bool measured = false;
        for (const auto& row : rows)
            if (const auto* c = row.cell(d.name)) measured = measured || c->measured();
        if (measured) {
            shown.push_back(&d);
            r.columns.push_back({d.name, d.header, true});
        }
    }
    std::map<std::string, const RowChange*> changes;  // by identity key
    if (comparison) {
        r.base_label = side_label(baseline->document, "baseline", true);
        add_change_columns(r.columns, baseline->options.gate.has_value(), "");
        for (const auto& row : comparison->comparison().rows)
            if (const RowChange& c = row.changes.at(0); c.row)
                changes[identity_key(*c.row, true)] = &c;
    }
    for (const Row& row : rows) {
        html::Row out;
        out.name = display_name(row.registration, row.name, row.labels);
        const bool timed = row.timing && !row.error;
        if (timed) {
            const TimingSummary& t = *row.timing;
            out.cells.push_back(cell(
                report::format_n(t),
                static_cast<double>(t.samples) * static_cast<double>(t.iterations_per_sample)));
            out.cells.push_back(median_cell(row, t));
            out.cells.push_back(
                cell(report::format_time_ns(t.printed_spread_ns()), t.printed_spread_ns()));
            out.cells.push_back(cell(report::format_sample_ns(t, t.min_ns), t.min_ns));
            out.cells.push_back(cell(report::format_sample_ns(t, t.max_ns), t.max_ns));
            out.samples_ns = t.sample_ns;
        } else {
            out.cells.push_back(cell("error: " + row.error.value_or("no timing"), kNan));
            for (int i = 0; i < 4; ++i) out.cells.push_back(cell("—", kNan));
        }
        for (const auto* d : shown) {
            const catalog::MetricCell* c = row.cell(d->name);
            out.cells.push_back(c ? cell(report::format_metric(*c), c->value) : cell("—", kNan));
        }
        if (comparison) {
            const auto it =
                changes.find(identity_key(row.registration, row.name, sorted_labels(row.labels)));
            RowChange none;
            none.reason = "only in this run";
            const RowChange& c = it == changes.end() ? none : *it->second;
            add_change_cells(out.cells, c, baseline->options.settings,
                             baseline->options.gate.has_value());
            out.verdict = c.change ? to_string(c.change->verdict) : "";
            if (const DocumentRow* base = baseline->find(row))
                out.base_samples_ns = base->samples_ns;
        }
        out.extra_html = tiers.row_html(row);
        r.rows.push_back(std::move(out));
    }
    return html::write_page(target, r);
}

}  // namespace glint::engine
