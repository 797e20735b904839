#include "engine/compare/compare_html.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "engine/report/units.hpp"

namespace glint::engine {
namespace {

namespace html = report::html;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

html::Cell number_cell(std::string text, double sort) { return {std::move(text), sort, true}; }

html::Cell time_cell(const DocumentRow* row) {
    if (!row) return number_cell("—", kNan);
    if (row->error) return number_cell("error", kNan);
    return number_cell(report::format_time_ns(row->median_ns), row->median_ns);
}

catalog::Format format_of(const std::string& name) {
    if (name == "ratio") return catalog::Format::ratio;
    if (name == "percent") return catalog::Format::percent;
    return catalog::Format::count;
}

bool estimated(const DocumentRow& row, const std::string& name) {
    for (const auto& e : row.estimated)
        if (e == name) return true;
    return false;
}

std::string key_suffix(const std::string& suffix) {
    std::string out;
    for (char c : suffix)
        if (c != ' ' && c != '#') out += c;
    return out;
}

}  // namespace

void add_change_columns(std::vector<html::Column>& columns, const CompareSettings& settings,
                        const std::string& suffix) {
    char level[32];
    std::snprintf(level, sizeof level, "%g%% CI", settings.level * 100);
    const std::string k = key_suffix(suffix);
    columns.push_back({"change" + k, "change" + suffix, true});
    columns.push_back({"ci" + k, level + suffix, true});
    columns.push_back({"verdict" + k, "verdict" + suffix, false});
}

void add_change_cells(std::vector<html::Cell>& cells, const RowChange& c) {
    if (c.change) {
        cells.push_back(number_cell(change_text(c.change->ratio), (c.change->ratio - 1) * 100));
        const bool interval = std::isfinite(c.change->low) && std::isfinite(c.change->high);
        cells.push_back(number_cell(interval ? "[" + change_text(c.change->low) + ", " +
                                                   change_text(c.change->high) + "]"
                                             : "—",
                                    interval ? (c.change->low - 1) * 100 : kNan));
    } else {
        cells.push_back(number_cell("—", kNan));
        cells.push_back(number_cell("—", kNan));
    }
    // Verdicts sort by severity: slower first when descending.
    const double rank = !c.change ? kNan
                        : c.change->verdict == Verdict::slower ? 4
                        : c.change->verdict == Verdict::noisy  ? 3
                        : c.change->verdict == Verdict::same   ? 2
                                                               : 1;
    cells.push_back(number_cell(verdict_text(c), rank));
}

html::Report comparison_html(const Comparison& c, const CompareReportOptions& options) {
    html::Report r;
    r.title = "glint-compare: " + c.documents.back()->path + " against " + c.documents.front()->path;
    for (std::size_t i = 0; i < c.summaries.size(); ++i) r.notes.push_back(summary_line(c, i, options.settings));
    for (const auto& n : c.notes) r.notes.push_back("note: " + n);
    if (const std::string gate = gate_line(c, options); !gate.empty()) r.notes.push_back(gate);
    r.sample_label = c.documents.back()->path;
    r.base_label = c.documents.front()->path;

    const bool series = c.documents.size() > 2;
    r.columns.push_back({"base", "base", true});
    for (std::size_t d = 1; d < c.documents.size(); ++d) {
        const std::string suffix = series ? " #" + std::to_string(d + 1) : "";
        r.columns.push_back({"median" + key_suffix(suffix), series ? "median" + suffix : "new", true});
        add_change_columns(r.columns, options.settings, suffix);
    }
    r.columns.push_back({"reps", "reps", true});
    // The newest document's counters that some row measured.
    const RunDocument& newest = *c.documents.back();
    std::vector<const DocumentColumn*> counters;
    for (const auto& col : newest.columns) {
        bool measured = false;
        for (const auto& row : c.rows)
            if (const auto* n = row.changes.back().row) measured = measured || std::isfinite(n->metric(col.name));
        if (measured && col.name.rfind("base-", 0) != 0) {
            counters.push_back(&col);
            r.columns.push_back({col.name, col.header, true});
        }
    }
    for (const auto& row : c.rows) {
        html::Row out;
        out.name = row.identity;
        out.cells.push_back(time_cell(row.base));
        std::string reps = row.base ? std::to_string(row.base->repetition_medians_ns.size()) : "—";
        for (const auto& ch : row.changes) {
            out.cells.push_back(time_cell(ch.row));
            add_change_cells(out.cells, ch);
            reps += "/" + (ch.row ? std::to_string(ch.row->repetition_medians_ns.size()) : "—");
        }
        out.cells.push_back(number_cell(reps, kNan));
        const DocumentRow* last = row.changes.back().row;
        for (const auto* col : counters) {
            const double v = last ? last->metric(col->name) : kNan;
            catalog::MetricCell cell;
            cell.value = v;
            cell.format = format_of(col->format);
            cell.estimated = last && estimated(*last, col->name);
            out.cells.push_back(number_cell(report::format_metric(cell), v));
        }
        if (last) out.samples_ns = last->samples_ns;
        if (row.base) out.base_samples_ns = row.base->samples_ns;
        const auto& final_change = row.changes.back();
        out.verdict = final_change.change ? to_string(final_change.change->verdict) : "";
        r.rows.push_back(std::move(out));
    }
    return r;
}

}  // namespace glint::engine
