#include "engine/compare/compare.hpp"

#include <cmath>
#include <limits>
#include <unordered_map>

#include "engine/compare/simulated_basis.hpp"

namespace glint::engine {
namespace {

Side side_of(const DocumentRow& row) {
    Side s;
    s.median_ns = row.median_ns;
    s.repetition_medians = row.repetition_medians_ns;
    s.samples_ns = row.samples_ns;
    for (const RunEvidence& run : row.runs)
        if (std::isfinite(run.median_ns) && run.median_ns > 0) s.runs.push_back(run);
    s.unstable = row.unstable;
    s.cpu_samples_ns = row.cpu_samples_ns;
    s.instructions = row.instructions();
    if (const double sim = row.metric(kSimulatedInstructions); std::isfinite(sim))
        s.simulated_instructions = sim;
    return s;
}

bool comparable(const DocumentRow& row) {
    return !row.error && row.resolved && std::isfinite(row.median_ns) && row.median_ns > 0;
}

void count(SeriesSummary& s, const RowChange& c) {
    if (!c.change) {
        ++s.unavailable;
        return;
    }
    switch (c.change->verdict) {
        case Verdict::faster:
            ++s.faster;
            break;
        case Verdict::slower:
            ++s.slower;
            break;
        case Verdict::same:
            ++s.same;
            break;
        case Verdict::noisy:
            ++s.noisy;
            break;
        case Verdict::unavailable:
            ++s.unavailable;
            break;
    }
}

}  // namespace

std::vector<std::string> provenance_warnings(const RunDocument& base, const RunDocument& later) {
    std::vector<std::string> out;
    const auto differ = [&](const std::string& a, const std::string& b, const char* what) {
        if (a.empty() || b.empty() || a == b) return;
        out.push_back("'" + later.path + "' and '" + base.path + "' come from different " + what +
                      " ('" + b + "' vs '" + a +
                      "'): the change measures them as well as the code");
    };
    differ(base.host, later.host, "hosts");
    differ(base.cpu_model, later.cpu_model, "CPU models");
    differ(base.build, later.build, "build types");
    differ(base.glint_version, later.glint_version, "glint versions");
    return out;
}

bool Comparison::gate_failed() const {
    for (const auto& s : summaries)
        if (!s.slower_beyond_gate.empty()) return true;
    return false;
}

GateTotals Comparison::gate_totals() const {
    GateTotals t;
    for (const auto& s : summaries) {
        t.passed += s.gate_passed;
        t.failed += s.slower_beyond_gate.size();
        t.unjudged += s.gate_unjudged.size();
        t.compared += s.compared;
        t.only_in_base += s.only_in_base;
        t.added += s.added;
    }
    return t;
}

std::optional<GateOutcome> Comparison::gate_outcome(bool allow_unjudged) const {
    if (!gate) return std::nullopt;
    if (gate_failed()) return GateOutcome::failed;
    if (allow_unjudged)
        return GateOutcome::passed;  // asked for: the gate line says what was not judged
    const GateTotals t = gate_totals();
    if (t.passed == 0 || t.unjudged) return GateOutcome::unjudged;
    return GateOutcome::passed;
}

int Comparison::gate_status(bool allow_unjudged) const {
    const auto outcome = gate_outcome(allow_unjudged);
    if (!outcome || *outcome == GateOutcome::passed) return 0;
    return *outcome == GateOutcome::failed ? 1 : 3;
}

RowChange compare_rows(const DocumentRow* base, const DocumentRow* next,
                       const CompareSettings& settings) {
    RowChange c;
    c.row = next;
    if (!base) c.reason = "new";
    else if (!next) c.reason = "only in base";
    else if (base->error || next->error) c.reason = "error";
    else if (!comparable(*base) || !comparable(*next)) c.reason = "unresolved";
    else c.change = compare_sides(side_of(*base), side_of(*next), settings);
    return c;
}

Comparison compare_documents(const std::vector<const RunDocument*>& documents,
                             const CompareSettings& settings, std::optional<double> gate) {
    Comparison out;
    out.documents = documents;
    out.gate = gate;
    for (std::size_t d = 1; d < documents.size(); ++d)
        for (auto& w : provenance_warnings(*documents[0], *documents[d]))
            out.warnings.push_back(std::move(w));
    bool registrations = true;
    for (const auto* d : documents) registrations = registrations && d->has_registrations;
    if (!registrations)
        for (const auto* d : documents)
            if (!d->has_registrations)
                out.notes.push_back(
                    "'" + d->path +
                    "' predates row registrations: rows matched by name and labels");

    // Every identity, base rows first, then rows only later documents have.
    std::vector<std::string> order;
    // Hashed by identity: matching is linear in the rows (a million rows match in seconds).
    std::vector<std::unordered_map<std::string, const DocumentRow*>> index(documents.size());
    for (std::size_t d = 0; d < documents.size(); ++d) index[d].reserve(documents[d]->rows.size());
    for (std::size_t d = 0; d < documents.size(); ++d)
        for (const auto& row : documents[d]->rows) {
            const std::string key = identity_key(row, registrations);
            if (!index[d].emplace(key, &row).second) {  // a second row with this identity
                out.notes.push_back("'" + documents[d]->path + "': two rows are " +
                                    identity_text(row) +
                                    (registrations ? "" : " once registrations are set aside") +
                                    ": only the first is compared");
                continue;
            }
            {
                bool known = false;
                for (std::size_t e = 0; e < d && !known; ++e) known = index[e].count(key) > 0;
                if (!known) order.push_back(key);
            }
        }

    out.summaries.resize(documents.size() - 1);
    std::vector<double> log_sum(documents.size() - 1, 0.0);
    for (const auto& key : order) {
        ComparedRow row;
        const auto found = index[0].find(key);
        row.base = found == index[0].end() ? nullptr : found->second;
        for (const auto& rows : index)
            if (const auto it = rows.find(key); it != rows.end() && row.identity.empty())
                row.identity = identity_text(*it->second);
        for (std::size_t d = 1; d < documents.size(); ++d) {
            const auto it = index[d].find(key);
            const DocumentRow* next = it == index[d].end() ? nullptr : it->second;
            RowChange c = compare_rows(row.base, next, settings);
            SeriesSummary& s = out.summaries[d - 1];
            count(s, c);
            if (c.change) {
                ++s.compared;
                log_sum[d - 1] += std::log(c.change->ratio);
            }
            const bool one_side = !c.change && (c.reason == "new" || c.reason == "only in base");
            if (one_side) ++(c.reason == "new" ? s.added : s.only_in_base);
            if (gate && !one_side) {
                c.gate = c.change ? judge_gate(*c.change, *gate) : GateJudgement{};
                if (c.gate->outcome == GateOutcome::failed)
                    s.slower_beyond_gate.push_back(row.identity);
                else if (c.gate->outcome == GateOutcome::passed) ++s.gate_passed;
                else
                    s.gate_unjudged.push_back(
                        {row.identity, c.change ? to_string(c.gate->why) : c.reason});
            }
            row.changes.push_back(std::move(c));
        }
        out.rows.push_back(std::move(row));
    }
    for (std::size_t i = 0; i < out.summaries.size(); ++i) {
        SeriesSummary& s = out.summaries[i];
        s.geomean_ratio = s.compared ? std::exp(log_sum[i] / static_cast<double>(s.compared))
                                     : std::numeric_limits<double>::quiet_NaN();
    }
    return out;
}

}  // namespace glint::engine
