// <glint/histogram.hpp> as text for a terminal and as JSON.
#include <algorithm>
#include <cmath>
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

// Bins over [low, high]: of equal width, or, when high is more than 8 times low, of equal ratio
// (so a tail three orders of magnitude out does not squeeze the body into one row). A bucket goes
// to the bin holding its midpoint.
std::vector<Bin> bin_values(const Histogram& h, std::uint64_t low, std::uint64_t high,
                            std::size_t rows, std::uint64_t& above) {
    std::vector<Bin> out;
    const std::uint64_t span = high - low + 1;
    if (high / 8 > std::max<std::uint64_t>(low, 1)) {
        const double first = static_cast<double>(std::max<std::uint64_t>(low, 1));
        const double ratio =
            std::pow(static_cast<double>(high + 1) / first, 1.0 / static_cast<double>(rows));
        std::uint64_t start = low;
        for (std::size_t i = 1; i <= rows && start <= high; ++i) {
            const std::uint64_t next =
                i == rows
                    ? high + 1
                    : std::max(start + 1, static_cast<std::uint64_t>(std::llround(
                                              first * std::pow(ratio, static_cast<double>(i)))));
            out.push_back(Bin{start, std::min(high, next - 1), 0});
            start = next;
        }
    } else {
        const std::uint64_t width = std::max<std::uint64_t>(1, (span + rows - 1) / rows);
        for (std::uint64_t start = low; start <= high; start += width) {
            out.push_back(Bin{start, std::min(high, start + width - 1), 0});
            if (high - start < width) break;
        }
    }
    above = 0;
    for (std::size_t b = 0; b < Histogram::kBuckets; ++b) {
        const std::uint64_t n = h.bucket_count(b);
        if (n == 0) continue;
        const std::uint64_t lo = std::max(Histogram::bucket_low(b), h.min());
        const std::uint64_t hi = std::min(Histogram::bucket_high(b), h.max());
        const std::uint64_t mid = std::max(lo + (hi - lo) / 2, low);
        if (mid > high) {
            above += n;
            continue;
        }
        const auto bin = std::upper_bound(out.begin(), out.end(), mid,
                                          [](std::uint64_t v, const Bin& x) { return v < x.low; });
        (bin - 1)->count += n;
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
    auto label = [](std::uint64_t lo, std::uint64_t hi) {
        return lo == hi ? fmt::format("{}", lo) : fmt::format("{}–{}", lo, hi);
    };
    // Terminal columns of a label: "–" is three bytes and one column wide.
    auto columns = [](const std::string& text) {
        return text.size() -
               2 * static_cast<std::size_t>(std::count(text.begin(), text.end(), '\xe2'));
    };
    std::size_t label_width = 0;
    for (const Bin& b : bins) label_width = std::max(label_width, columns(label(b.low, b.high)));
    const std::string tail = fmt::format("> {}", s.p999);
    if (above) label_width = std::max(label_width, columns(tail));
    auto row = [&](const std::string& name, std::uint64_t n) {
        const std::uint64_t eighths = tallest ? n * options.width * 8 / tallest : 0;
        const std::size_t bar_columns = static_cast<std::size_t>((eighths + 7) / 8);
        const std::size_t name_columns = columns(name);
        return fmt::format("  {}{} │{}{}│ {:5.1f}% {}\n",
                           std::string(label_width - std::min(label_width, name_columns), ' '),
                           name, bar(eighths),
                           std::string(options.width - std::min(options.width, bar_columns), ' '),
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
