// The JSON form of a comparison (compare_report.hpp: comparison_json).
#include <cmath>

#include "engine/compare/compare_report.hpp"
#include "engine/compare/simulated_basis.hpp"
#include "engine/report/json_report.hpp"

namespace glint::engine {
namespace {

Json number(double v) { return std::isfinite(v) ? Json(v) : Json(); }

Json dropped_json(const Change& c) {
    Json out = Json::array();
    for (const auto& d : c.dropped) {
        Json j = Json::object();
        j["side"] = d.base ? "base" : "new";
        j["run"] = static_cast<unsigned long>(d.run);
        j["reason"] = d.why;
        out.push_back(std::move(j));
    }
    return out;
}
Json percent_number(double ratio) {
    return std::isfinite(ratio) ? Json((ratio - 1) * 100) : Json();
}

}  // namespace

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
            j["intervalBasis"] = ch.change ? to_string(ch.change->interval) : "none";
            j["intervalLevel"] = ch.change ? number(ch.change->coverage >= options.settings.level
                                                        ? options.settings.level
                                                        : ch.change->coverage)
                                           : Json();
            j["repetitionsLowPercent"] = ch.change ? percent_number(ch.change->reps_low) : Json();
            j["repetitionsHighPercent"] = ch.change ? percent_number(ch.change->reps_high) : Json();
            j["runsLowPercent"] = ch.change ? percent_number(ch.change->runs_low) : Json();
            j["runsHighPercent"] = ch.change ? percent_number(ch.change->runs_high) : Json();
            j["instrChangePercent"] = ch.change ? percent_number(ch.change->instr_ratio) : Json();
            j["basis"] = ch.change ? to_string(ch.change->basis) : "none";
            j["verdict"] = ch.change ? to_string(ch.change->verdict) : "unavailable";
            if (!ch.change) j["reason"] = ch.reason;
            if (ch.change) j["droppedRuns"] = dropped_json(*ch.change);
            if (ch.change) j["cpuChangePercent"] = percent_number(ch.change->cpu_ratio);
            if (ch.gate) j["gate"] = to_string(ch.gate->outcome);
            if (ch.gate && ch.gate->outcome == GateOutcome::unjudged)
                j["gateReason"] = ch.change ? to_string(ch.gate->why) : ch.reason;
            j["shown"] = c.gate ? gate_text(ch) : verdict_text(ch);
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
    Json warnings = Json::array();
    for (const auto& w : c.warnings) warnings.push_back(w);
    out["warnings"] = std::move(warnings);
    Json notes = Json::array();
    for (const auto& n : c.notes) notes.push_back(n);
    if (const std::string dropped = dropped_note(c); !dropped.empty()) notes.push_back(dropped);
    out["notes"] = std::move(notes);
    return out;
}

}  // namespace glint::engine
