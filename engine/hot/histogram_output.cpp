// <glint/histogram.hpp> as text for a terminal and as JSON.
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "engine/hot/histogram_json.hpp"

namespace glint::hot {
namespace {

// A bar of `eighths` / 8 characters.
std::string bar(std::uint64_t eighths) {
    static constexpr const char* kPartial[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
    std::string out;
    for (std::uint64_t i = 0; i < eighths / 8; ++i) out += "█";
    out += kPartial[eighths % 8];
    return out;
}

struct Bin {
    std::uint64_t low = 0;
    std::uint64_t high = 0;
    std::uint64_t count = 0;
};

// Bins of equal width over [low, high]; a bucket goes to the bin holding its midpoint.
std::vector<Bin> bin_values(const Histogram& h, std::uint64_t low, std::uint64_t high,
                            std::size_t rows, std::uint64_t& above) {
    const std::uint64_t span = high - low + 1;
    const std::uint64_t width = std::max<std::uint64_t>(1, (span + rows - 1) / rows);
    const std::size_t bins = static_cast<std::size_t>((span + width - 1) / width);
    std::vector<Bin> out(bins);
    for (std::size_t i = 0; i < bins; ++i) {
        out[i].low = low + i * width;
        out[i].high = std::min(high, out[i].low + width - 1);
    }
    above = 0;
    for (std::size_t b = 0; b < Histogram::kBuckets; ++b) {
        const std::uint64_t n = h.bucket_count(b);
        if (n == 0) continue;
        const std::uint64_t lo = std::max(Histogram::bucket_low(b), h.min());
        const std::uint64_t hi = std::min(Histogram::bucket_high(b), h.max());
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (mid > high) {
            above += n;
        } else {
            out[static_cast<std::size_t>((std::max(mid, low) - low) / width)].count += n;
        }
    }
    return out;
}

}  // namespace

std::string to_text(const Histogram& h, const TextOptions& options) {
    std::string out;
    if (!options.title.empty()) out += fmt::format("{}\n", options.title);
    const Histogram::Summary s = h.summary();
    const std::string unit = options.unit.empty() ? "" : fmt::format(" ({})", options.unit);
    if (s.count == 0) return out + "  no records" + unit + "\n";
    out += fmt::format("  n={} min={} p50={} p90={} p99={} p99.9={} max={} mean={:.2f}{}\n",
                       s.count, s.min, s.p50, s.p90, s.p99, s.p999, s.max, s.mean, unit);
    std::uint64_t above = 0;
    const std::vector<Bin> bins =
        bin_values(h, s.min, s.p999, std::max<std::size_t>(1, options.rows), above);
    std::uint64_t tallest = above;
    for (const Bin& b : bins) tallest = std::max(tallest, b.count);
    std::size_t label_width = 0;
    auto label = [](std::uint64_t lo, std::uint64_t hi) {
        return lo == hi ? fmt::format("{}", lo) : fmt::format("{}–{}", lo, hi);
    };
    for (const Bin& b : bins) label_width = std::max(label_width, label(b.low, b.high).size());
    const std::string tail = fmt::format("> {}", s.p999);
    if (above) label_width = std::max(label_width, tail.size());
    auto row = [&](const std::string& name, std::uint64_t n) {
        const std::uint64_t eighths = tallest ? n * options.width * 8 / tallest : 0;
        const std::size_t bar_columns = static_cast<std::size_t>((eighths + 7) / 8);
        // "–" is three bytes and one column wide.
        const std::size_t name_columns =
            name.size() - 2 * static_cast<std::size_t>(std::count(name.begin(), name.end(), '\xe2'));
        return fmt::format("  {}{} │{}{}│ {:5.1f}% {}\n",
                           std::string(label_width - std::min(label_width, name_columns), ' '), name,
                           bar(eighths), std::string(options.width - std::min(options.width, bar_columns), ' '),
                           100.0 * static_cast<double>(n) / static_cast<double>(s.count), n);
    };
    for (const Bin& b : bins) out += row(label(b.low, b.high), b.count);
    if (above) out += row(tail, above);
    return out;
}

engine::Json histogram_json(const Histogram& h) {
    using engine::Json;
    Json j = Json::object();
    const Histogram::Summary s = h.summary();
    const bool any = s.count > 0;
    j["count"] = s.count;
    j["min"] = any ? Json(s.min) : Json();
    j["p50"] = any ? Json(s.p50) : Json();
    j["p90"] = any ? Json(s.p90) : Json();
    j["p99"] = any ? Json(s.p99) : Json();
    j["p99.9"] = any ? Json(s.p999) : Json();
    j["max"] = any ? Json(s.max) : Json();
    j["mean"] = any ? Json(s.mean) : Json();
    Json buckets = Json::array();
    for (std::size_t b = 0; b < Histogram::kBuckets; ++b) {
        if (h.bucket_count(b) == 0) continue;
        Json bucket = Json::array();
        bucket.push_back(Histogram::bucket_low(b));
        bucket.push_back(b == Histogram::kBuckets - 1 ? h.max() : Histogram::bucket_high(b));
        bucket.push_back(h.bucket_count(b));
        buckets.push_back(std::move(bucket));
    }
    j["buckets"] = std::move(buckets);
    return j;
}

std::string to_json(const Histogram& h) { return histogram_json(h).dump(-1); }

}  // namespace glint::hot
