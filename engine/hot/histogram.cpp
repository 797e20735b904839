// The arithmetic of <glint/histogram.hpp> that is not on the recording path.
#include <glint/histogram.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace glint::hot {

void Histogram::merge(const Histogram& other) noexcept {
    for (std::size_t b = 0; b < kBuckets; ++b) counts_[b] += other.counts_[b];
    count_ += other.count_;
    sum_ += other.sum_;
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
}

void Histogram::clear() noexcept {
    std::fill(std::begin(counts_), std::end(counts_), 0);
    count_ = 0;
    sum_ = 0;
    min_ = UINT64_MAX;
    max_ = 0;
}

double Histogram::mean() const noexcept {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0;
}

std::uint64_t Histogram::percentile(double p) const noexcept {
    if (count_ == 0) return 0;
    if (!(p > 0)) return min_;
    if (p >= 100) return max_;
    // Nearest rank: the ceil(p/100 * count)-th smallest record (1-based). Computed in integers
    // where p has few decimals, so 99.9% of 1000 is exactly rank 999.
    const double exact = p / 100.0 * static_cast<double>(count_);
    std::uint64_t rank = static_cast<std::uint64_t>(std::ceil(exact - 1e-9 * exact));
    rank = std::clamp<std::uint64_t>(rank, 1, count_);
    std::uint64_t seen = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) {
        seen += counts_[b];
        if (seen >= rank) {
            if (b == kBuckets - 1) return max_;
            return std::clamp(bucket_high(b), min_, max_);
        }
    }
    return max_;
}

Histogram::Summary Histogram::summary() const noexcept {
    Summary s;
    s.count = count_;
    s.min = min();
    s.p50 = percentile(50);
    s.p90 = percentile(90);
    s.p99 = percentile(99);
    s.p999 = percentile(99.9);
    s.max = max_;
    s.mean = mean();
    return s;
}

}  // namespace glint::hot
