// engine/stability/unstable_legend.hpp: the legend under the tables when rows are unstable. The
// tables show each unstable row's reasons as short codes (engine/model/unstable_codes.hpp); the
// legend names each code the run's tables show, and only those, one line each, e.g.
//   ~ unstable: each row's reasons as codes (every reason: JSON rows[].unstable)
//   ~cpu    CPU/wall < 0.9 (cpu-time, 3 rows) · try --pin, a quieter machine
//   ~timer  sample < 1000 timer steps (timer-resolution, 1 row) · try --bench-min-time=0.08 ...
// Each entry starts with "~", so a wrapped entry's continuation ("  ...") reads as one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/row.hpp"
#include "engine/stability/remedies.hpp"
#include "engine/stability/verdict.hpp"

namespace glint::engine {

// The legend's lines for `rows` (the header line, then one per code shown, with what helps
// after what `done` did: remedies.hpp); none when no row is unstable.
std::vector<std::string> unstable_legend(const std::vector<Row>& rows,
                                         const StabilityThresholds& limits = {},
                                         const RemedyContext& done = {});

}  // namespace glint::engine
