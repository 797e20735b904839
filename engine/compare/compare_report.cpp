#include "engine/compare/compare_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/compare/simulated_basis.hpp"
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

Grid grid_of(const Comparison& c, const CompareSettings& settings, bool hide_only_in_base) {
    Grid g;
    const bool instr = any_instructions(c);
    const std::size_t later = c.documents.size() - 1;
    g.headers.push_back("base");
    for (std::size_t i = 0; i < later; ++i) {
        const std::string s = suffix(c, i);
        g.headers.push_back(later > 1 ? "median" + s : "new");
        g.headers.push_back("change" + s);
        g.headers.push_back(level_text(settings) + " CI" + s);
        g.headers.push_back("verdict" + s);
        if (instr) g.headers.push_back("instr" + s);
    }
    g.headers.push_back("reps");
    for (const auto& row : c.rows) {
        if (hide_only_in_base && only_in_base(row)) continue;
        std::vector<std::string> cells{median_text(row.base)};
        std::string reps = row.base ? std::to_string(row.base->repetition_medians_ns.size()) : "—";
        for (const auto& ch : row.changes) {
            cells.push_back(median_text(ch.row));
            cells.push_back(ch.change ? change_text(ch.change->ratio) : kNotMeasuredText);
            cells.push_back(ch.change ? interval_text(*ch.change) : kNotMeasuredText);
            cells.push_back(verdict_text(ch));
            if (instr)
                cells.push_back(ch.change ? change_text(ch.change->instr_ratio) : kNotMeasuredText);
            reps += "/" + (ch.row ? std::to_string(ch.row->repetition_medians_ns.size()) : "—");
        }
        cells.push_back(reps);
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

Json number(double v) { return std::isfinite(v) ? Json(v) : Json(); }
Json percent_number(double ratio) {
    return std::isfinite(ratio) ? Json((ratio - 1) * 100) : Json();
}

}  // namespace

std::string change_text(double ratio) { return percent(ratio - 1, 2); }

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
    else if (c.change->basis == Basis::simulated) text += " (sim)";
    else if (c.change->basis == Basis::samples && c.change->verdict == Verdict::noisy)
        text += c.change->base_repetitions <= 1 && c.change->new_repetitions <= 1
                    ? " (" + reps_text(*c.change) + ")"
                    : " (" + reps_text(*c.change) + ": need 4+)";
    else if (c.change->basis == Basis::runs && c.change->verdict == Verdict::noisy)
        text += " (runs)";
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
    line += " (threshold ±" + percent(settings.threshold, 1).substr(1) + ", " +
            level_text(settings) + " intervals over repetition medians)";
    return line;
}

namespace {

// "one run a side: 8, new: 2": counts per reason, in first-seen order.
std::vector<std::pair<std::string, std::size_t>> unjudged_groups(const Comparison& c) {
    std::vector<std::pair<std::string, std::size_t>> groups;
    for (const auto& s : c.summaries)
        for (const auto& u : s.gate_unjudged) {
            auto it = std::find_if(groups.begin(), groups.end(),
                                   [&](const auto& g) { return g.first == u.reason; });
            if (it == groups.end()) groups.emplace_back(u.reason, 1);
            else ++it->second;
        }
    return groups;
}

std::string groups_text(const std::vector<std::pair<std::string, std::size_t>>& groups) {
    std::string text;
    for (const auto& [reason, n] : groups)
        text += (text.empty() ? "" : ", ") + reason + ": " + std::to_string(n);
    return text;
}

bool has_group(const std::vector<std::pair<std::string, std::size_t>>& groups, Unjudged why) {
    return std::any_of(groups.begin(), groups.end(),
                       [&](const auto& g) { return g.first == to_string(why); });
}

// What would let the gate judge the rows it could not.
std::string gate_hint(const std::vector<std::pair<std::string, std::size_t>>& groups, double gate) {
    char pct[32];
    std::snprintf(pct, sizeof pct, "%g", gate * 100);
    if (has_group(groups, Unjudged::one_run) || has_group(groups, Unjudged::few_repetitions) ||
        has_group(groups, Unjudged::runs_one_side))
        return " — run 8 alternating runs a side: glint-compare --alternate=8 BASE_PROGRAM "
               "NEW_PROGRAM "
               "--fail-if-slower=" +
               std::string(pct);
    if (has_group(groups, Unjudged::straddles) || has_group(groups, Unjudged::runs_straddle))
        return " — more repetitions (--bench-repeat=N) or runs a side narrow the interval";
    return "";
}

}  // namespace

std::string gate_line(const Comparison& c, const CompareReportOptions& options) {
    const auto outcome = c.gate_outcome(options.allow_unjudged);
    if (!outcome || !options.gate) return "";
    const std::string pct = percent(*options.gate, 1).substr(1);
    const std::string head = "--fail-if-slower=" + pct + ": ";
    const auto [passed, failed, unjudged, compared, only_in_base, added] = c.gate_totals();
    std::vector<std::string> failing;
    for (const auto& s : c.summaries)
        failing.insert(failing.end(), s.slower_beyond_gate.begin(), s.slower_beyond_gate.end());
    // Rows one side lacks: counted beside the verdict, never gated (a benchmark added or removed).
    std::string one_side;
    if (only_in_base) one_side += std::to_string(only_in_base) + " only in base";
    if (added) one_side += (one_side.empty() ? "" : ", ") + std::to_string(added) + " new";
    const auto groups = unjudged_groups(c);
    const std::string total = std::to_string(passed + failed + unjudged);
    if (compared == 0 && failing.empty() && !options.allow_unjudged)
        return head + "COULD NOT JUDGE: no row compared" +
               (one_side.empty() ? "" : " (" + one_side + ")") +
               (unjudged ? "; " + groups_text(groups) : "") +
               " — is the baseline from this program?";
    const std::string aside = one_side.empty() ? "" : "; not gated: " + one_side;
    if (*outcome == GateOutcome::failed) {
        std::string names;
        for (const auto& f : failing) names += (names.empty() ? "" : ", ") + f;
        return head + "FAILED: " + std::to_string(failing.size()) + " row(s) slower beyond " + pct +
               " with confidence: " + names + simulated_basis_words(c) +
               (unjudged ? "; could not judge " + std::to_string(unjudged) + " (" +
                               groups_text(groups) + ")"
                         : "") +
               aside;
    }
    if (*outcome == GateOutcome::passed) {
        if (!unjudged && compared)
            return head + "passed: " + std::to_string(passed) +
                   " row(s) judged, none slower beyond " + pct + " with confidence" +
                   simulated_basis_words(c) + aside;
        return head + "passed: " + std::to_string(passed) + " judged, " + std::to_string(unjudged) +
               " not judged (--allow-unjudged" +
               (groups.empty() ? "" : "; " + groups_text(groups)) + ")" + aside;
    }
    return head + "COULD NOT JUDGE " + std::to_string(unjudged) + " of " + total + " rows (" +
           groups_text(groups) + ")" + gate_hint(groups, *options.gate) + aside;
}

std::string render_comparison(const Comparison& c, const CompareReportOptions& options,
                              CompareFormat format) {
    const Grid g = grid_of(c, options.settings, options.hide_only_in_base);
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
    for (const auto& note : c.notes) out += text("note: " + note) + "\n";
    if (const std::size_t hidden = c.rows.size() - g.rows.size())
        out += text("note: " + std::to_string(hidden) + " row(s) of " + c.documents.front()->path +
                    " not measured here (left out of the table)") +
               "\n";
    if (const std::string gate = gate_line(c, options); !gate.empty()) out += text(gate) + "\n";
    return out;
}

Json comparison_json(const Comparison& c, const CompareReportOptions& options) {
    Json out = Json::object();
    Json docs = Json::array();
    for (const auto* d : c.documents) docs.push_back(d->path);
    out["documents"] = std::move(docs);
    out["thresholdPercent"] = options.settings.threshold * 100;
    out["level"] = options.settings.level;
    Json rows = Json::array();
    for (const auto& row : c.rows) {
        const DocumentRow* any = row.base;
        for (const auto& ch : row.changes) any = any ? any : ch.row;
        Json r = Json::object();
        r["registration"] = any->registration;
        r["name"] = any->name;
        r["labels"] = labels_json(any->labels);
        r["displayName"] = row.identity;
        r["baseMedianNs"] = row.base && !row.base->error ? number(row.base->median_ns) : Json();
        r["baseRepetitions"] =
            row.base ? Json(static_cast<unsigned long>(row.base->repetition_medians_ns.size()))
                     : Json();
        Json changes = Json::array();
        for (std::size_t i = 0; i < row.changes.size(); ++i) {
            const RowChange& ch = row.changes[i];
            Json j = Json::object();
            j["document"] = c.documents[i + 1]->path;
            j["medianNs"] = ch.row && !ch.row->error ? number(ch.row->median_ns) : Json();
            j["repetitions"] =
                ch.row ? Json(static_cast<unsigned long>(ch.row->repetition_medians_ns.size()))
                       : Json();
            j["changePercent"] = ch.change ? percent_number(ch.change->ratio) : Json();
            j["ciLowPercent"] = ch.change ? percent_number(ch.change->low) : Json();
            j["ciHighPercent"] = ch.change ? percent_number(ch.change->high) : Json();
            j["runsLowPercent"] = ch.change ? percent_number(ch.change->runs_low) : Json();
            j["runsHighPercent"] = ch.change ? percent_number(ch.change->runs_high) : Json();
            j["instrChangePercent"] = ch.change ? percent_number(ch.change->instr_ratio) : Json();
            j["basis"] = ch.change ? to_string(ch.change->basis) : "none";
            j["verdict"] = ch.change ? to_string(ch.change->verdict) : "unavailable";
            if (!ch.change) j["reason"] = ch.reason;
            if (ch.gate) j["gate"] = to_string(ch.gate->outcome);
            changes.push_back(std::move(j));
        }
        r["changes"] = std::move(changes);
        rows.push_back(std::move(r));
    }
    out["rows"] = std::move(rows);
    Json summaries = Json::array();
    for (std::size_t i = 0; i < c.summaries.size(); ++i) {
        const SeriesSummary& s = c.summaries[i];
        Json j = Json::object();
        j["document"] = c.documents[i + 1]->path;
        j["compared"] = static_cast<unsigned long>(s.compared);
        j["geomeanChangePercent"] = percent_number(s.geomean_ratio);
        j["faster"] = static_cast<unsigned long>(s.faster);
        j["slower"] = static_cast<unsigned long>(s.slower);
        j["same"] = static_cast<unsigned long>(s.same);
        j["noisy"] = static_cast<unsigned long>(s.noisy);
        j["unavailable"] = static_cast<unsigned long>(s.unavailable);
        summaries.push_back(std::move(j));
    }
    out["summaries"] = std::move(summaries);
    if (const auto outcome = c.gate_outcome(options.allow_unjudged); outcome && options.gate) {
        Json gate = Json::object();
        gate["failIfSlowerPercent"] = *options.gate * 100;
        gate["status"] = to_string(*outcome);
        gate["failed"] = c.gate_failed();
        gate["allowUnjudged"] = options.allow_unjudged;
        Json failing = Json::array(), unjudged = Json::array();
        const GateTotals totals = c.gate_totals();
        for (const auto& s : c.summaries) {
            for (const auto& f : s.slower_beyond_gate) failing.push_back(f);
            for (const auto& u : s.gate_unjudged) {
                Json j = Json::object();
                j["row"] = u.identity;
                j["reason"] = u.reason;
                unjudged.push_back(std::move(j));
            }
        }
        gate["judged"] = static_cast<unsigned long>(totals.passed + totals.failed);
        gate["judgedOnSimulated"] = static_cast<unsigned long>(simulated_rows(c));
        gate["rows"] = std::move(failing);
        gate["unjudged"] = std::move(unjudged);
        gate["notGatedOnlyInBase"] = static_cast<unsigned long>(totals.only_in_base);
        gate["notGatedNew"] = static_cast<unsigned long>(totals.added);
        out["gate"] = std::move(gate);
    }
    Json notes = Json::array();
    for (const auto& n : c.notes) notes.push_back(n);
    out["notes"] = std::move(notes);
    return out;
}

}  // namespace glint::engine
