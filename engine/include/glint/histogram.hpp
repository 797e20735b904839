// <glint/histogram.hpp>: a fixed-memory histogram of per-call costs, with percentiles.
//
//   glint::hot::Histogram h;           // ~68 KiB inline: allocate it once, reuse it
//   for (...) h.record(cost);          // inline, no allocation, no system call
//   const auto s = h.summary();        // p50, p90, p99, p99.9, max, ...
//
// Contracts: values below 1024 are exact; above, a bucket is at most 0.4% of its values wide
// (values >= 2^40 share the last one); min, max, count and sum are exact. percentile(p) is
// nearest-rank, reported as its bucket's upper end clamped to [min, max] (never below the true
// value). An empty histogram reports 0 everywhere: check count() first.
// Rationale and details: "<glint/histogram.hpp>" in glint's documentation (rationale.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace glint::hot {

class Histogram {
  public:
    static constexpr unsigned kExactBits = 10;  // values < 2^10 are exact
    static constexpr unsigned kSubBits = 8;     // 2^8 buckets per power of two above that
    static constexpr unsigned kTopBits = 40;    // values >= 2^40 share the last bucket
    static constexpr std::size_t kExact = std::size_t{1} << kExactBits;
    static constexpr std::size_t kSub = std::size_t{1} << kSubBits;
    static constexpr std::size_t kBuckets = kExact + (kTopBits - kExactBits) * kSub;

    // Adds one value. Inline, constant time, no allocation.
    void record(std::uint64_t value) noexcept {
        ++counts_[bucket_of(value)];
        ++count_;
        sum_ += value;
        if (value < min_) min_ = value;
        if (value > max_) max_ = value;
    }

    // Adds every record of `other`.
    void merge(const Histogram& other) noexcept;
    void clear() noexcept;

    std::uint64_t count() const noexcept { return count_; }
    std::uint64_t min() const noexcept { return count_ ? min_ : 0; }
    std::uint64_t max() const noexcept { return max_; }
    double mean() const noexcept;  // 0 when empty

    // Nearest-rank percentile, p in (0, 100] (p <= 0 gives min, p >= 100 gives max).
    std::uint64_t percentile(double p) const noexcept;

    struct Summary {
        std::uint64_t count = 0;
        std::uint64_t min = 0;
        std::uint64_t p50 = 0;
        std::uint64_t p90 = 0;
        std::uint64_t p99 = 0;
        std::uint64_t p999 = 0;  // p99.9
        std::uint64_t max = 0;
        double mean = 0;
    };
    Summary summary() const noexcept;

    // The buckets, for printing: bucket b holds values in [bucket_low(b), bucket_high(b)]
    // (the last one also every value above).
    static constexpr std::size_t bucket_of(std::uint64_t value) noexcept {
        if (value < kExact) return static_cast<std::size_t>(value);
        const unsigned e = 63u - static_cast<unsigned>(__builtin_clzll(value));
        if (e >= kTopBits) return kBuckets - 1;
        const std::size_t sub = static_cast<std::size_t>(value >> (e - kSubBits)) & (kSub - 1);
        return kExact + (e - kExactBits) * kSub + sub;
    }
    static constexpr std::uint64_t bucket_low(std::size_t b) noexcept {
        if (b < kExact) return b;
        const unsigned e = kExactBits + static_cast<unsigned>((b - kExact) / kSub);
        const std::uint64_t sub = (b - kExact) % kSub;
        return (std::uint64_t{1} << e) + (sub << (e - kSubBits));
    }
    static constexpr std::uint64_t bucket_high(std::size_t b) noexcept {
        if (b < kExact) return b;
        const unsigned e = kExactBits + static_cast<unsigned>((b - kExact) / kSub);
        return bucket_low(b) + (std::uint64_t{1} << (e - kSubBits)) - 1;
    }
    std::uint64_t bucket_count(std::size_t b) const noexcept { return counts_[b]; }

  private:
    std::uint64_t counts_[kBuckets] = {};
    std::uint64_t count_ = 0;
    std::uint64_t sum_ = 0;
    std::uint64_t min_ = UINT64_MAX;
    std::uint64_t max_ = 0;
};

// ---- output (in the glint library) ------------------------------------------------------------

struct TextOptions {
    std::string_view title = {};  // first line, e.g. the case name
    std::string_view unit = {};   // "cycles", "instructions", "ticks"
    std::size_t rows = 16;        // bars between min and p99.9 (one per value when fewer)
    std::size_t width = 40;       // bar width in characters at 100%
};

// The summary line and a bar chart, one row per range of values, for a terminal (UTF-8).
std::string to_text(const Histogram& histogram, const TextOptions& options = {});

// {"count", "min", "p50", "p90", "p99", "p99.9", "max", "mean", "buckets": [[low, high,
// count], ...] (non-empty buckets only)}; nulls for the statistics of an empty histogram.
std::string to_json(const Histogram& histogram);

}  // namespace glint::hot
