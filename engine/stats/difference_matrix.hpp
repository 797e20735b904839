// engine/stats/difference_matrix.hpp: the pairwise differences b[j] - a[i] of two sample sets,
// never materialised, and selection of their order statistics (what shift.hpp's estimators
// read).
//
// Both sets are kept sorted, so row i (b[0..n) - a[i]) ascends in j and, rounding being
// monotone, descends in i: the count of differences below a value takes one O(m + n) staircase
// walk. Selection narrows per-row candidate ranges around random pivots (Monahan's scheme; the
// pivot the median of three draws, so the ranges shrink faster): expected O(log(mn)) walks.
// Every result is an element of the matrix, exactly the value a full sort of the m*n
// differences puts at that rank. Deterministic (a fixed seed), O(m + n) memory.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace glint::engine {

class DifferenceMatrix {
  public:
    // Copies both sets (sorting a copy that is not sorted already).
    DifferenceMatrix(std::span<const double> a, std::span<const double> b);

    // The k-th smallest difference, 0-based; k < size().
    double select(std::uint64_t k) const;

    // The largest difference below `value`; `value` itself when none is (never the case for a
    // value the matrix holds above its minimum).
    double largest_below(double value) const;

    // How many differences are below `value`.
    std::uint64_t count_below(double value) const;

    std::uint64_t size() const { return static_cast<std::uint64_t>(a_.size()) * b_.size(); }
    bool empty() const { return a_.empty() || b_.empty(); }

  private:
    double at(std::size_t i, std::size_t j) const { return b_[j] - a_[i]; }

    std::vector<double> a_, b_;
};

}  // namespace glint::engine
