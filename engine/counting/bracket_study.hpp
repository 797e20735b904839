// engine/counting/bracket_study.hpp: what one read path's brackets cost, and what that cost
// does to a body's per-iteration counts (published by glint::BracketCost, engine/studies/;
// bench/bracket_cost.cpp reports it for every path).
//
// Over an open group and one of its read paths: the bracket's own cost (calibrate_path: the
// counts, cycles and time of an empty bracket), then the body counted twice, every iteration
// bracketed and `batch` iterations per bracket. Raw figures have nothing subtracted (what
// unbatched brackets report is mostly the apparatus); the others subtract the pass's interleaved
// empty brackets as the perf tier does (nan when the body is within that subtraction's noise).
// Figures of `anchor`, one member of the group (instructions, or task-clock on the software
// group). Nothing here is asserted about speed: it is measured and reported.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "engine/counting/read_path.hpp"

namespace glint::engine::counting {

struct BracketingStudy {
    bool ok = false;
    std::string failure;  // why not, when !ok (figures not measured stay nan)
    std::uint64_t iterations = 0;
    std::uint64_t batch = 0;
    PathCost cost;  // one empty bracket: per-member counts, cycles, ns (calibrate_path)
    static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    double anchor_per_bracket = kNaN;  // the anchor counted by one empty bracket
    double batch1_raw = kNaN;          // anchor per iteration, every iteration bracketed, raw
    double batched_raw = kNaN;         // anchor per iteration, `batch` per bracket, raw
    double batch1 = kNaN;              // batch 1, the pass's empty brackets subtracted
    double batched = kNaN;             // batched, the pass's empty brackets subtracted
    // How much more an unbatched bracket reports per iteration than a batched one (raw).
    double inflation() const { return batch1_raw / batched_raw; }
};

// Studies `path` over the group whose members are `members` (`anchor` indexes them) with
// `body` run `iterations` times per pass; `batch` is clamped to 1..iterations. Never throws for
// environment problems (ok = false and the reason).
BracketingStudy study_path(ReadPath& path, const std::vector<os::Event>& members,
                           std::size_t anchor, Body body, std::uint64_t iterations,
                           std::uint64_t batch);

}  // namespace glint::engine::counting
