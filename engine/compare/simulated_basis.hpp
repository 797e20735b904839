// engine/compare/simulated_basis.hpp: the verdict on simulated instructions (basis
// "simulated"). --simulate's sim-instr is exact and identical run to run, so one run a side
// decides: same when both counts are equal (a change of exactly 0), slower or faster otherwise,
// whatever time says. The gate fails such a row when the count grew beyond the gate's fraction
// and passes it otherwise; the gate line names the basis it judged. Pure.
// Rationale and measurements: docs/simulated.md.
#pragma once

#include <string>

#include "engine/compare/verdict.hpp"

namespace glint::engine {

// The row's catalog name of the count (sim-instr).
inline constexpr const char* kSimulatedInstructions = "sim-instr";

// Replaces `change`'s verdict, ratio and interval with the simulated instructions' when both
// sides counted them (> 0); leaves it alone otherwise.
void apply_simulated_basis(Change& change, const Side& base, const Side& next);

struct Comparison;
// The gated rows judged on this basis.
std::size_t simulated_rows(const Comparison& comparison);
// For the gate line: " (N row(s) judged on simulated instructions: ...)"; "" when none.
std::string simulated_basis_words(const Comparison& comparison);

}  // namespace glint::engine
