#include "engine/compare/simulated_basis.hpp"

#include "engine/compare/compare.hpp"

namespace glint::engine {

void apply_simulated_basis(Change& change, const Side& base, const Side& next) {
    if (!base.simulated_instructions || !next.simulated_instructions) return;
    const double a = *base.simulated_instructions, b = *next.simulated_instructions;
    if (!(a > 0) || !(b > 0)) return;
    change.ratio = change.low = change.high = b / a;
    change.verdict = b > a ? Verdict::slower : b < a ? Verdict::faster : Verdict::same;
    change.basis = change.interval = Basis::simulated;
}

std::size_t simulated_rows(const Comparison& comparison) {
    std::size_t rows = 0;
    for (const auto& row : comparison.rows)
        for (const auto& c : row.changes)
            rows += c.gate && c.change && c.change->basis == Basis::simulated;
    return rows;
}

std::string simulated_basis_words(const Comparison& comparison) {
    const std::size_t rows = simulated_rows(comparison);
    if (rows == 0) return "";
    return " (" + std::to_string(rows) +
           " row(s) judged on simulated instructions: exact, one run a side)";
}

}  // namespace glint::engine
