// The gate's line under a comparison (compare_report.hpp: gate_line).
#include <algorithm>
#include <cstdio>

#include "engine/compare/compare_report.hpp"
#include "engine/compare/simulated_basis.hpp"
#include "engine/report/units.hpp"

namespace glint::engine {
namespace {

// "one run a side: 8, new: 2": counts per reason, in first-seen order. Rows measured unstably
// whose CPU time did not move are named: "measured unstably, CPU time unchanged: 1 (g/x)".
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

std::string named_rows(const Comparison& c, const std::string& reason) {
    std::string names;
    for (const auto& s : c.summaries)
        for (const auto& u : s.gate_unjudged)
            if (u.reason == reason) names += (names.empty() ? "" : ", ") + u.identity;
    return names;
}

std::string groups_text(const Comparison& c,
                        const std::vector<std::pair<std::string, std::size_t>>& groups) {
    std::string text;
    for (const auto& [reason, n] : groups) {
        text += (text.empty() ? "" : ", ") + reason + ": " + std::to_string(n);
        if (reason == to_string(Unjudged::unstable)) text += " (" + named_rows(c, reason) + ")";
    }
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
        has_group(groups, Unjudged::runs_one_side) || has_group(groups, Unjudged::few_runs))
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
    std::string pct = report::format_signed_percent(*options.gate * 100, 1);
    if (pct.front() == '+') pct.erase(0, 1);  // a gate of 0 reads "0.0%", unsigned
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
               (unjudged ? "; " + groups_text(c, groups) : "") +
               " — is the baseline from this program?";
    const std::string aside = one_side.empty() ? "" : "; not gated: " + one_side;
    if (*outcome == GateOutcome::failed) {
        std::string names;
        for (const auto& f : failing) names += (names.empty() ? "" : ", ") + f;
        return head + "FAILED: " + std::to_string(failing.size()) + " row(s) slower beyond " + pct +
               " with confidence: " + names + simulated_basis_words(c) +
               (unjudged ? "; could not judge " + std::to_string(unjudged) + " (" +
                               groups_text(c, groups) + ")"
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
               (groups.empty() ? "" : "; " + groups_text(c, groups)) + ")" + aside;
    }
    return head + "COULD NOT JUDGE " + std::to_string(unjudged) + " of " + total + " rows (" +
           groups_text(c, groups) + ")" + gate_hint(groups, *options.gate) + aside;
}

}  // namespace glint::engine
