// engine/counting/batch_math.hpp: a pass's brackets combined robustly, as pure functions.
//
// run_pass keeps each body bracket's deltas (BracketSeries). combine_pass turns them into
// per-iteration values that one disturbed bracket (an interrupt, a timer tick) cannot move:
// brackets whose per-iteration value is an outlier in any member are rejected together, and the
// value is the kept brackets' counts, less their cost, over their iterations. Multiplexed
// passes, passes of too few brackets and passes where no clear majority agrees keep the sum
// (per_iteration); CountSpread says which and why. Rationale: docs/rationale.md,
// "engine/counting/batch_math.hpp".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/counting/pass_math.hpp"
#include "engine/model/json.hpp"

namespace glint::engine::counting {

inline constexpr std::uint64_t kMinRobustBrackets = 32;     // full body brackets, at least
inline constexpr std::uint64_t kMaxKeptBrackets = 1 << 18;  // more: not kept, the sum
inline constexpr double kOutlierScore = 3.5;                // Iglewicz-Hoaglin modified z-score
inline constexpr double kMaxRejectedShare = 0.25;           // more rejected: no majority, the sum

// Each body bracket's deltas, bracket-major, kept without allocating between brackets after
// the first (reserve() sizes it before the pass).
struct BracketSeries {
    std::size_t size = 0;               // members
    std::vector<std::uint64_t> counts;  // bracket b, member m: counts[b * size + m]
    std::vector<std::uint64_t> iterations, enabled, running;
    bool kept = true;  // false: too many brackets, or a bracket failed or changed size

    void reserve(std::uint64_t brackets);  // at most kMaxKeptBrackets; more: kept = false
    void add(const GroupDelta& delta, std::uint64_t n);
    std::size_t brackets() const { return iterations.size(); }
};

// Which brackets are outliers: values[b][m] is bracket b's per-iteration value of member m.
// A bracket is rejected when any member's |0.6745 (x - median) / MAD| > kOutlierScore; a
// member whose MAD is 0 (an exact count) rejects every bracket that differs from its median.
std::vector<bool> outlier_brackets(const std::vector<std::vector<double>>& values);

// The spread of one member's per-iteration values across the pass's brackets.
struct MemberSpread {
    double median = 0, mad = 0, min = 0, max = 0;
};

struct CountSpread {
    bool robust = false;                // true: the kept brackets' mean; false: the pass's sum
    std::string reason;                 // why the sum was kept ("" when robust)
    std::size_t brackets = 0;           // body brackets in the pass
    std::size_t rejected = 0;           // of them, rejected as outliers (robust only)
    std::size_t empty_rejected = 0;     // empty brackets rejected from the cost (robust only)
    std::vector<MemberSpread> members;  // per member; empty when not measured per bracket
};

struct CombinedPass {
    PerIteration per;
    CountSpread spread;
};

// The pass's per-iteration values. `empties` are its interleaved empty brackets, `sum_cost`
// what the sum subtracts (the mean of the empties, or the open-time cost).
CombinedPass combine_pass(const PassTotals& totals, const BracketSeries& series,
                          const std::vector<GroupDelta>& empties, const BracketCost& sum_cost,
                          std::uint64_t iterations, std::uint64_t batch);

// {"combined": "robust" | "sum", "reason", "brackets", "rejected", "emptyRejected",
// "perIteration": {name: {median, mad, min, max}}}: null where not measured. `names` name the
// members in order.
Json spread_json(const CountSpread& spread, const std::vector<std::string>& names);

}  // namespace glint::engine::counting
