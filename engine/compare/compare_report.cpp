#include "engine/compare/compare_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/model/sanitize.hpp"
#include "engine/report/json_report.hpp"
#include "engine/report/render.hpp"
#include "engine/report/units.hpp"

namespace glint::engine {
namespace {

using report::kNotMeasuredText;

std::string percent(double fraction, int decimals) {
    return report::format_signed_percent(fraction * 100, decimals);
}

std::string interval_text(const Change& c) {
    if (!std::isfinite(c.low) || !std::isfinite(c.high)) return kNotMeasuredText;
    return "[" + percent(c.low - 1, 1) + ", " + percent(c.high - 1, 1) + "]";
}

std::string median_text(const DocumentRow* row) {
    if (!row) return kNotMeasuredText;
    if (row->error) return "error";
    return report::format_time_ns(row->median_ns);
}

bool any_instructions(const Comparison& c) {
    for (const auto& row : c.rows)
        for (const auto& ch : row.changes)
            if (ch.change && std::isfinite(ch.change->instr_ratio)) return true;
    return false;
}

std::string suffix(const Comparison& c, std::size_t later) {
    return c.documents.size() > 2 ? " #" + std::to_string(later + 2) : "";
}

std::string level_text(const CompareSettings& s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g%%", s.level * 100);
    return buf;
}

struct Grid {
    std::vector<std::string> headers;
    std::vector<std::pair<std::string, std::vector<std::string>>> rows;  // name, cells
};

bool only_in_base(const ComparedRow& row) {
    for (const auto& ch : row.changes)
        if (ch.row) return false;
    return true;
}

// The tag every interval of later document `i` shares ("runs 95%"), or "" when they differ.
std::string shared_tag(const Comparison& c, std::size_t i, const CompareSettings& settings) {
    std::string tag;
    for (const auto& row : c.rows) {
        const RowChange& ch = row.changes[i];
        if (!ch.change) continue;
        const std::string t = interval_tag(*ch.change, settings);
        if (tag.empty()) tag = t;
        else if (t != tag) return "";
    }
    return tag.empty() ? level_text(settings) + " CI" : tag;
}

// "95% CI, runs" for a shared tag with a level; "interval, samples" for one without.
std::string interval_header(const std::string& tag) {
    if (tag.empty()) return "interval";
    const auto space = tag.find(' ');
    if (space == std::string::npos) return "interval, " + tag;  // "samples": no level
    return tag.substr(space + 1) + " CI, " + tag.substr(0, space);
}

bool any_runs(const Comparison& c) {
    for (const auto& row : c.rows)
        for (const auto& ch : row.changes)
            if (ch.change && (ch.change->base_runs > 1 || ch.change->new_runs > 1)) return true;
    return false;
}

// "8/8", or "8/8 (3 out)" when runs were left out as disturbed.
std::string runs_cell(const RowChange& ch) {
    if (!ch.change) return kNotMeasuredText;
    const Change& c = *ch.change;
    std::string text = std::to_string(c.base_runs) + "/" + std::to_string(c.new_runs);
    if (!c.dropped.empty()) text += " (" + std::to_string(c.dropped.size()) + " out)";
    return text;
}

Grid grid_of(const Comparison& c, const CompareReportOptions& options) {
    const CompareSettings& settings = options.settings;
    Grid g;
    const bool instr = any_instructions(c), runs = any_runs(c);
    const std::size_t later = c.documents.size() - 1;
    std::vector<std::string> tags;
    g.headers.push_back("base");
    for (std::size_t i = 0; i < later; ++i) {
        const std::string s = suffix(c, i);
        tags.push_back(shared_tag(c, i, settings));
        g.headers.push_back(later > 1 ? "median" + s : "new");
        g.headers.push_back("HL change" + s);
        g.headers.push_back(interval_header(tags.back()) + s);
        g.headers.push_back((c.gate ? "gate" : "verdict") + s);
        if (instr) g.headers.push_back("instr" + s);
    }
    g.headers.push_back(runs ? "runs" : "reps");
    for (const auto& row : c.rows) {
        if (options.hide_only_in_base && only_in_base(row)) continue;
        std::vector<std::string> cells{median_text(row.base)};
        std::string reps = row.base ? std::to_string(row.base->repetition_medians_ns.size()) : "—";
        std::string run_counts;
        for (std::size_t i = 0; i < row.changes.size(); ++i) {
            const RowChange& ch = row.changes[i];
            cells.push_back(median_text(ch.row));
            cells.push_back(ch.change ? change_text(ch.change->ratio) : kNotMeasuredText);
            std::string interval = ch.change ? interval_text(*ch.change) : kNotMeasuredText;
            if (ch.change && tags[i].empty() && interval != kNotMeasuredText)
                interval += " " + interval_tag(*ch.change, settings);
            cells.push_back(interval);
            cells.push_back(c.gate ? gate_text(ch) : verdict_text(ch));
            if (instr)
                cells.push_back(ch.change ? change_text(ch.change->instr_ratio) : kNotMeasuredText);
            reps += "/" + (ch.row ? std::to_string(ch.row->repetition_medians_ns.size()) : "—");
            run_counts += (run_counts.empty() ? "" : " ") + runs_cell(ch);
        }
        cells.push_back(runs ? run_counts : reps);
        g.rows.emplace_back(row.identity, std::move(cells));
    }
    return g;
}

std::string box_table(const Grid& g) {
    report::TableHead head;
    head.columns = g.headers;
    report::TableModel table{head, {}, {}};
    for (const auto& [name, cells] : g.rows) {
        report::FormattedRow r;
        r.name = sanitize::terminal(name);
        for (const auto& cell : cells) r.cells.push_back(sanitize::terminal(cell));
        table.rows.push_back(std::move(r));
    }
    table.layout = report::tight_layout(head, table.rows);
    return report::render_table(table);
}

std::string md_table(const Grid& g) {
    std::string out = "| benchmark |";
    std::string rule = "|:---|";
    for (const auto& h : g.headers) {
        out += " " + sanitize::markdown(h) + " |";
        rule += "---:|";
    }
    out += "\n" + rule + "\n";
    for (const auto& [name, cells] : g.rows) {
        out += "| " + sanitize::markdown(name) + " |";
        for (const auto& cell : cells) out += " " + sanitize::markdown(cell) + " |";
        out += "\n";
    }
    return out;
}

}  // namespace

std::string change_text(double ratio) { return percent(ratio - 1, 2); }

// "3 run(s) left out as disturbed: g/x base run 3 (preempted), ...": at most 6 named, then a count.
std::string dropped_note(const Comparison& c) {
    std::string names;
    std::size_t total = 0;
    for (const auto& row : c.rows)
        for (const auto& ch : row.changes) {
            if (!ch.change) continue;
            for (const auto& d : ch.change->dropped) {
                if (++total > 6) continue;
                names += (names.empty() ? "" : ", ") + row.identity + (d.base ? " base" : " new") +
                         " run " + std::to_string(d.run) + " (" + d.why + ")";
            }
        }
    if (total == 0) return "";
    if (total > 6) names += " and " + std::to_string(total - 6) + " more";
    return std::to_string(total) + " run(s) left out as disturbed: " + names;
}

std::string interval_tag(const Change& c, const CompareSettings& settings) {
    if (c.interval == Basis::samples) return "samples";
    const double level = c.coverage >= settings.level - 1e-9 ? settings.level : c.coverage;
    char pct[32];
    std::snprintf(pct, sizeof pct, "%g%%", std::floor(level * 1000 + 1e-6) / 10);
    return std::string(c.interval == Basis::runs ? "runs " : "reps ") + pct;
}

std::string gate_text(const RowChange& c) {
    if (!c.gate) return c.change ? verdict_text(c) : c.reason;  // a row the gate does not count
    switch (c.gate->outcome) {
        case GateOutcome::passed:
            return "passed";
        case GateOutcome::failed:
            return c.change && c.change->basis == Basis::instructions ? "FAILED (instr)" : "FAILED";
        case GateOutcome::unjudged:
            break;
    }
    return "not judged: " + (c.change ? std::string(short_text(c.gate->why)) : c.reason);
}

// "1 rep", "3 reps", "3/2 reps": what each side measured.
std::string reps_text(const Change& c) {
    const std::size_t a = c.base_repetitions, b = c.new_repetitions;
    const std::string n = a == b ? std::to_string(a) : std::to_string(a) + "/" + std::to_string(b);
    return n + (a == 1 && b == 1 ? " rep" : " reps");
}

std::string verdict_text(const RowChange& c) {
    if (!c.change) return c.reason;
    std::string text = to_string(c.change->verdict);
    if (c.change->basis == Basis::instructions) text += " (instr)";
    else if (c.change->unstable_cpu_unchanged) text += " (unstable)";
    else if (c.change->basis == Basis::simulated) text += " (sim)";
    else if (c.change->basis == Basis::samples && c.change->verdict == Verdict::noisy)
        text += c.change->base_repetitions <= 1 && c.change->new_repetitions <= 1
                    ? " (" + reps_text(*c.change) + ")"
                    : " (" + reps_text(*c.change) + ": need 4+)";
    else if (c.change->basis == Basis::runs && c.change->verdict == Verdict::noisy)
        text += c.change->runs_too_few ? " (too few runs)" : " (runs)";
    return text;
}

std::string summary_line(const Comparison& c, std::size_t later, const CompareSettings& settings) {
    const SeriesSummary& s = c.summaries.at(later);
    std::string line = c.documents.at(later + 1)->path + " vs " + c.documents.at(0)->path + ": ";
    line += s.compared ? "geometric mean " + change_text(s.geomean_ratio) + " over " +
                             std::to_string(s.compared) + " rows"
                       : std::string("no row compared");
    line += " · " + std::to_string(s.faster) + " faster · " + std::to_string(s.slower) +
            " slower · " + std::to_string(s.same) + " same · " + std::to_string(s.noisy) + " noisy";
    if (s.unavailable) line += " · " + std::to_string(s.unavailable) + " not compared";
    line += " (threshold ±" + percent(settings.threshold, 1).substr(1) + ")";
    return line;
}

std::string render_comparison(const Comparison& c, const CompareReportOptions& options,
                              CompareFormat format) {
    const Grid g = grid_of(c, options);
    std::string out;
    if (format == CompareFormat::md) {
        out = md_table(g) + "\n";
        for (std::size_t i = 0; i < c.summaries.size(); ++i)
            out += "**" + sanitize::markdown(summary_line(c, i, options.settings)) + "**\n\n";
    } else {
        out = box_table(g);
        for (std::size_t i = 0; i < c.summaries.size(); ++i)
            out += sanitize::terminal(summary_line(c, i, options.settings)) + "\n";
    }
    // Notes and the gate line name rows and paths: the format's sanitiser, like every cell.
    const auto text = [&](const std::string& line) {
        return format == CompareFormat::md ? sanitize::markdown(line) : sanitize::terminal(line);
    };
    for (const auto& warning : c.warnings) out += text("warning: " + warning) + "\n";
    for (const auto& note : c.notes) out += text("note: " + note) + "\n";
    if (const std::string dropped = dropped_note(c); !dropped.empty())
        out += text("note: " + dropped) + "\n";
    if (const std::size_t hidden = c.rows.size() - g.rows.size())
        out += text("note: " + std::to_string(hidden) + " row(s) of " + c.documents.front()->path +
                    " not measured here (left out of the table)") +
               "\n";
    if (const std::string gate = gate_line(c, options); !gate.empty()) out += text(gate) + "\n";
    return out;
}

}  // namespace glint::engine
