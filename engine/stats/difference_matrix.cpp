#include "engine/stats/difference_matrix.hpp"

#include <algorithm>
#include <iterator>

namespace glint::engine {
namespace {

std::vector<double> sorted_copy(std::span<const double> values) {
    std::vector<double> out(values.begin(), values.end());
    if (!std::is_sorted(out.begin(), out.end())) std::sort(out.begin(), out.end());
    return out;
}

// splitmix64: a fixed sequence, cheap to start (selection draws a few hundred numbers).
std::uint64_t next_random(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

DifferenceMatrix::DifferenceMatrix(std::span<const double> a, std::span<const double> b)
    : a_(sorted_copy(a)), b_(sorted_copy(b)) {}

std::uint64_t DifferenceMatrix::count_below(double value) const {
    std::uint64_t under = 0;
    std::size_t lt = 0;
    for (std::size_t i = 0; i < a_.size(); ++i) {
        while (lt < b_.size() && at(i, lt) < value) ++lt;
        under += lt;
    }
    return under;
}

double DifferenceMatrix::largest_below(double value) const {
    bool found = false;
    double best = value;
    std::size_t lt = 0;
    for (std::size_t i = 0; i < a_.size(); ++i) {
        while (lt < b_.size() && at(i, lt) < value) ++lt;
        if (lt == 0) continue;
        const double d = at(i, lt - 1);
        if (!found || d > best) best = d;
        found = true;
    }
    return best;
}

double DifferenceMatrix::select(std::uint64_t k) const {
    const std::size_t m = a_.size(), n = b_.size();
    std::vector<std::size_t> lo(m, 0), hi(m, n), below(m), through(m);
    std::vector<std::uint64_t> ends(m);  // the candidates in rows 0..i
    std::uint64_t skipped = 0;           // differences left of every row's range (all smaller)
    std::uint64_t state = 0x5eed;
    for (;;) {
        for (std::size_t i = 0; i < m; ++i) ends[i] = (i ? ends[i - 1] : 0) + (hi[i] - lo[i]);
        const std::uint64_t candidates = m ? ends[m - 1] : 0;
        if (candidates <= std::max<std::uint64_t>(m + n, 64)) {
            std::vector<double> left;
            left.reserve(static_cast<std::size_t>(candidates));
            for (std::size_t i = 0; i < m; ++i)
                for (std::size_t j = lo[i]; j < hi[i]; ++j) left.push_back(at(i, j));
            const auto nth = left.begin() + static_cast<std::ptrdiff_t>(k - skipped);
            std::nth_element(left.begin(), nth, left.end());
            return *nth;
        }
        // The pivot: of three candidates drawn at random, the one whose rank among them is
        // nearest the k-th's among the candidates (mostly the middle one).
        const auto draw = [&] {
            const std::uint64_t pick = next_random(state) % candidates;
            const auto row = static_cast<std::size_t>(
                std::upper_bound(ends.begin(), ends.end(), pick) - ends.begin());
            const std::uint64_t before = row ? ends[row - 1] : 0;
            return at(row, lo[row] + static_cast<std::size_t>(pick - before));
        };
        double three[3] = {draw(), draw(), draw()};
        std::sort(std::begin(three), std::end(three));
        const double q = static_cast<double>(k - skipped) / static_cast<double>(candidates);
        const double pivot = three[q < 0.3 ? 0 : q > 0.7 ? 2 : 1];
        // below[i]: differences of row i under the pivot; through[i]: at most the pivot. Both
        // grow as i grows (a row's differences fall), so the columns only move right. through
        // is walked only when the k-th is not under the pivot.
        std::uint64_t under = 0;
        for (std::size_t i = 0, lt = 0; i < m; ++i) {
            while (lt < n && at(i, lt) < pivot) ++lt;
            below[i] = lt;
            under += lt;
        }
        if (k < under) {
            for (std::size_t i = 0; i < m; ++i) hi[i] = std::min(hi[i], below[i]);
            continue;
        }
        std::uint64_t upto = 0;
        for (std::size_t i = 0, le = 0; i < m; ++i) {
            le = std::max(le, below[i]);
            while (le < n && at(i, le) <= pivot) ++le;
            through[i] = le;
            upto += le;
        }
        if (k < upto) return pivot;
        for (std::size_t i = 0; i < m; ++i) {
            const std::size_t next = std::max(lo[i], through[i]);
            skipped += next - lo[i];
            lo[i] = next;
            hi[i] = std::max(hi[i], lo[i]);
        }
    }
}

}  // namespace glint::engine
