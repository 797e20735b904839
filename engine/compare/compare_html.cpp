#include "engine/compare/compare_html.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "engine/model/not_measured.hpp"
#include "engine/model/unstable_codes.hpp"
#include "engine/report/units.hpp"

namespace glint::engine {
namespace {

namespace html = report::html;

html::Cell number_cell(std::string text, double sort) { return {std::move(text), sort, true}; }

html::Cell time_cell(const DocumentRow* row, const RunDocument& doc) {
    if (!row) return number_cell("—", kNan);
    if (row->error) return number_cell("error", kNan);
    html::Cell cell = number_cell(report::format_time_ns(row->median_ns), row->median_ns);
    mark_unstable(cell, *row, doc);
    return cell;
}

std::string file_name(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
}

catalog::Format format_of(const std::string& name) {
    if (name == "ratio") return catalog::Format::ratio;
    if (name == "percent") return catalog::Format::percent;
    if (name == "ns") return catalog::Format::nanoseconds;
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

std::string side_label(const RunDocument& doc, const std::string& role, bool brief) {
    const std::size_t n = doc.files.size();
    if (n <= 1) return file_name(doc.path);
    const std::string runs = role + " (" + std::to_string(n) + " runs";
    if (brief) return runs + ")";
    return runs + ": " + file_name(doc.files.front()) + (n == 2 ? ", " : " … ") +
           file_name(doc.files.back()) + ")";
}

void mark_unstable(html::Cell& cell, const DocumentRow& row, const RunDocument& doc) {
    if (row.unstable.empty()) return;
    cell.unstable = row.unstable;
    const std::size_t runs = std::max<std::size_t>(row.runs.size(), 1);
    std::string title = runs > 1 ? "unstable in " + std::to_string(row.unstable_runs) + " of " +
                                       std::to_string(runs) + " runs: "
                                 : "unstable: ";
    for (std::size_t i = 0; i < row.unstable.size(); ++i) {
        title += (i ? ", " : "") + code_of_reason(row.unstable[i]);
        for (const auto& [code, meaning] : doc.reasons)
            if (code == row.unstable[i]) title += " (" + meaning + ")";
    }
    cell.unstable_title = title;
}

// The verdict (the gate's outcome when gated) leads, so a narrow window keeps it in view.
void add_change_columns(std::vector<html::Column>& columns, bool gated, const std::string& suffix) {
    const std::string k = key_suffix(suffix);
    columns.push_back({"verdict" + k, (gated ? "gate" : "verdict") + suffix, false});
    columns.push_back({"change" + k, "HL change" + suffix, true});
    columns.push_back({"ci" + k, "interval" + suffix, true});
}

void add_change_cells(std::vector<html::Cell>& cells, const RowChange& c,
                      const CompareSettings& settings, bool gated) {
    // Verdicts sort by severity: slower first when descending.
    const double rank = !c.change                              ? kNan
                        : c.change->verdict == Verdict::slower ? 4
                        : c.change->verdict == Verdict::noisy  ? 3
                        : c.change->verdict == Verdict::same   ? 2
                                                               : 1;
    cells.push_back(number_cell(gated ? gate_text(c) : verdict_text(c), rank));
    if (c.change) {
        cells.push_back(number_cell(change_text(c.change->ratio), (c.change->ratio - 1) * 100));
        const bool interval = std::isfinite(c.change->low) && std::isfinite(c.change->high);
        cells.push_back(number_cell(interval ? "[" + change_text(c.change->low) + ", " +
                                                   change_text(c.change->high) + "] " +
                                                   interval_tag(*c.change, settings)
                                             : "—",
                                    interval ? (c.change->low - 1) * 100 : kNan));
    } else {
        cells.push_back(number_cell("—", kNan));
        cells.push_back(number_cell("—", kNan));
    }
}

html::Report comparison_html(const Comparison& c, const CompareReportOptions& options) {
    html::Report r;
    const bool series = c.documents.size() > 2;
    const std::size_t last = c.documents.size() - 1;
    const auto role = [&](std::size_t d) {
        return d == 0   ? std::string("base")
               : series ? "#" + std::to_string(d + 1)
                        : std::string("new");
    };
    r.title = "glint-compare: " + side_label(*c.documents.back(), role(last)) + " vs " +
              side_label(*c.documents.front(), role(0));
    if (series) r.title += " (a series of " + std::to_string(c.documents.size()) + " documents)";
    for (std::size_t d = 0; d < c.documents.size(); ++d)
        if (series || c.documents[d]->files.size() > 1 ||
            file_name(c.documents[d]->path) != c.documents[d]->path)
            r.notes.push_back(role(d) + ": " +
                              (c.documents[d]->files.size() > 1
                                   ? std::to_string(c.documents[d]->files.size()) + " runs: "
                                   : "") +
                              joined(c.documents[d]->files.empty()
                                         ? std::vector{c.documents[d]->path}
                                         : c.documents[d]->files));
    // The summary lines start "NEW vs BASE: ", every file of a side spelled out: the sides'
    // names here (the files are in the lines above).
    for (std::size_t i = 0; i < c.summaries.size(); ++i) {
        std::string line = summary_line(c, i, options.settings);
        const std::string files = c.documents[i + 1]->path + " vs " + c.documents[0]->path + ": ";
        if (line.rfind(files, 0) == 0)
            line = side_label(*c.documents[i + 1], role(i + 1), true) + " vs " +
                   side_label(*c.documents[0], role(0), true) + ": " + line.substr(files.size());
        r.notes.push_back(line);
    }
    for (const auto& w : c.warnings) r.notes.push_back("warning: " + w);
    for (const auto& n : c.notes) r.notes.push_back("note: " + n);
    if (const std::string dropped = dropped_note(c); !dropped.empty())
        r.notes.push_back("note: " + dropped);
    if (const std::string gate = gate_line(c, options); !gate.empty()) r.notes.push_back(gate);
    r.sample_label = side_label(*c.documents.back(), role(last), true);
    r.base_label = side_label(*c.documents.front(), role(0), true);

    r.columns.push_back({"base", "base", true});
    for (std::size_t d = 1; d < c.documents.size(); ++d) {
        const std::string suffix = series ? " #" + std::to_string(d + 1) : "";
        r.columns.push_back(
            {"median" + key_suffix(suffix), series ? "median" + suffix : "new", true});
        add_change_columns(r.columns, c.gate.has_value(), suffix);
    }
    r.columns.push_back({"reps", "reps", true});
    // The newest document's counters that some row measured.
    const RunDocument& newest = *c.documents.back();
    std::vector<const DocumentColumn*> counters;
    for (const auto& col : newest.columns) {
        bool measured = false;
        for (const auto& row : c.rows)
            if (const auto* n = row.changes.back().row)
                measured = measured || std::isfinite(n->metric(col.name));
        if (measured && col.name.rfind("base-", 0) != 0) {
            counters.push_back(&col);
            r.columns.push_back({col.name, col.header, true});
        }
    }
    for (const auto& row : c.rows) {
        html::Row out;
        out.name = row.identity;
        out.cells.push_back(time_cell(row.base, *c.documents.front()));
        std::string reps = row.base ? std::to_string(row.base->repetition_medians_ns.size()) : "—";
        for (std::size_t d = 0; d < row.changes.size(); ++d) {
            const RowChange& ch = row.changes[d];
            out.cells.push_back(time_cell(ch.row, *c.documents[d + 1]));
            add_change_cells(out.cells, ch, options.settings, c.gate.has_value());
            reps += "/" + (ch.row ? std::to_string(ch.row->repetition_medians_ns.size()) : "—");
        }
        out.cells.push_back(number_cell(reps, kNan));
        const DocumentRow* latest_row = row.changes.back().row;
        for (const auto* col : counters) {
            const double v = latest_row ? latest_row->metric(col->name) : kNan;
            catalog::MetricCell cell;
            cell.value = v;
            cell.format = format_of(col->format);
            cell.estimated = latest_row && estimated(*latest_row, col->name);
            out.cells.push_back(number_cell(report::format_metric(cell), v));
        }
        if (latest_row) out.samples_ns = latest_row->samples_ns;
        if (row.base) out.base_samples_ns = row.base->samples_ns;
        const auto& final_change = row.changes.back();
        out.verdict = final_change.change ? to_string(final_change.change->verdict) : "";
        r.rows.push_back(std::move(out));
    }
    return r;
}

}  // namespace glint::engine
