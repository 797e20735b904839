// engine/gbench/complexity.hpp: Complexity() on a drop-in family, fitted by glint's complexity
// fit (engine/stats/complexity.hpp) over the family's measured instances: N is what the
// instance's first call gave SetComplexityN (else its first argument), the time glint's median.
// oAuto takes the model with the smallest RMS, and says "undecided" where the next fits less
// than kComplexityMargin times worse; a named model (oN, oNSquared, ...) is fitted as asked.
// Google Benchmark's JSON gains its BigO and RMS rows after each fitted family's instances.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/gbench/instances.hpp"

namespace glint::gbench {

// What the instance named `name` gave SetComplexityN in its first call (register.cpp).
void record_complexity_n(const std::string& name, std::int64_t n);

struct ComplexityReport {
    std::vector<std::string> lines;  // one a family: "complexity: BM_x ~ O(n): ..."
    std::string gbench_json;         // the document with BigO/RMS rows ("": none was given)
};

// Fits each family of `selected` that asked for Complexity(), from the rows of
// `glint_document` (glint's JSON); adds the rows to `gbench_json` when it is not empty.
ComplexityReport fit_families(const std::vector<Instance>& selected,
                              const std::string& glint_document, const std::string& gbench_json);

// Whether any of `selected` asked for Complexity().
bool wants_complexity(const std::vector<Instance>& selected);

}  // namespace glint::gbench
