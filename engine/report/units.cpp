#include "engine/report/units.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace glint::engine::report {

namespace {

struct Unit {
    const char* suffix;
    double scale;
    int decimals;
};

// "-0.00" -> "0.00": a value that rounds to zero has no sign.
std::string fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    std::string text = buf;
    if (text[0] == '-' && std::strtod(text.c_str(), nullptr) == 0.0) text.erase(0, 1);
    return text;
}

// Picks the first unit whose rounded magnitude stays below 1000 (the last unit otherwise).
template <std::size_t N>
std::string scaled(double value, const Unit (&units)[N]) {
    if (!std::isfinite(value)) return kNotMeasuredText;
    double magnitude = std::fabs(value);
    for (std::size_t i = 0; i < N; ++i) {
        const Unit& unit = units[i];
        std::string digits = fixed(magnitude / unit.scale, unit.decimals);
        if (i + 1 < N && std::strtod(digits.c_str(), nullptr) >= 1000.0) continue;
        std::string text = fixed(value / unit.scale, unit.decimals);
        return text + unit.suffix;
    }
    return kNotMeasuredText;  // unreachable: the last unit always returns
}

constexpr Unit kTimeUnits[] = {
    {"ns", 1.0, 2},
    {"µs", 1e3, 1},
    {"ms", 1e6, 1},
    {"s", 1e9, 1},
};

constexpr Unit kCountUnits[] = {
    {"", 1.0, 2}, {"k", 1e3, 2}, {"M", 1e6, 2}, {"G", 1e9, 2}, {"T", 1e12, 2},
};

}  // namespace

std::string format_time_ns(double ns) { return scaled(ns, kTimeUnits); }

std::string format_count(double value) { return scaled(value, kCountUnits); }

std::string format_metric(const catalog::MetricCell& cell) {
    if (!std::isfinite(cell.value)) return kNotMeasuredText;
    std::string body;
    switch (cell.format) {
        case catalog::Format::count:
            body = format_count(cell.value);
            break;
        case catalog::Format::ratio:
            body = fixed(cell.value, 2);
            break;
        case catalog::Format::percent:
            body = fixed(cell.value, 2) + "%";
            break;
        case catalog::Format::change:
            body = format_signed_percent(cell.value, 2);
            break;
        case catalog::Format::nanoseconds:
            body = format_time_ns(cell.value);
            break;
    }
    return cell.estimated ? "≈" + body : body;
}

std::string format_signed_percent(double percent, int decimals) {
    if (!std::isfinite(percent)) return kNotMeasuredText;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.*f%%", decimals, percent);
    std::string text = buf;
    if (text.find_first_not_of("+-0.%") == std::string::npos)
        text.erase(0, 1);  // "0.00%", unsigned
    return text;
}

std::string format_n(const TimingSummary& timing) {
    std::string samples = std::to_string(timing.samples);
    if (timing.per_call) return samples;
    return samples + "×" + std::to_string(timing.iterations_per_sample);
}

std::string format_sample_ns(const TimingSummary& timing, double ns) {
    // An unresolved per-call time is only bounded: the call cost less than the clock bracket.
    if (std::isfinite(ns) && !timing.resolved(ns))
        return "<" + format_time_ns(timing.resolution_ns);
    return format_time_ns(ns);
}

std::string format_median_mad(const TimingSummary& timing) {
    if (!std::isfinite(timing.median_ns)) return kNotMeasuredText;
    if (!timing.median_resolved()) return format_sample_ns(timing, timing.median_ns);
    return format_time_ns(timing.median_ns) + " ±" + format_time_ns(timing.printed_spread_ns());
}

}  // namespace glint::engine::report
