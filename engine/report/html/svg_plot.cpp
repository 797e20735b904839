#include "engine/report/html/svg_plot.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>

#include "engine/report/html/html_report.hpp"
#include "engine/stats/shift.hpp"

namespace glint::engine::report::html {
namespace {

constexpr double kLaneHeight = 22, kAxisHeight = 18, kMargin = 8;

// Linear interpolation between order statistics (sorted must be non-empty).
double quantile(const std::vector<double>& sorted, double p) {
    const double pos = p * static_cast<double>(sorted.size() - 1);
    const auto i = static_cast<std::size_t>(pos);
    if (i + 1 >= sorted.size()) return sorted.back();
    return sorted[i] + (pos - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

// A sample's value as data-* attributes carry it: the shortest text that reads back as the same
// double (JSON's 6 digits could not tell apart two lanes' extremes 0.0003 ns apart).
std::string exact(double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// The box plot's numbers of one sorted set: quartiles, median, and the whiskers (the most
// extreme samples within 1.5 interquartile ranges of the box).
struct BoxStats {
    double q1, med, q3, wlo, whi;
};

BoxStats box_stats(const std::vector<double>& sorted) {
    BoxStats b{quantile(sorted, 0.25), quantile(sorted, 0.5), quantile(sorted, 0.75), 0, 0};
    const double iqr = b.q3 - b.q1;
    b.wlo = b.q3;
    b.whi = b.q1;
    for (double v : sorted) {
        if (v >= b.q1 - 1.5 * iqr) b.wlo = std::min(b.wlo, v);
        if (v <= b.q3 + 1.5 * iqr) b.whi = std::max(b.whi, v);
    }
    return b;
}

// `lo`..`hi`: the lowest and highest sample drawn on the axis (real samples); the drawn range
// adds a margin of 4% of their span (1% of the value when the span is nil) on either side.
struct Axis {
    double lo, hi, min, max;  // min, max: of every sample (beyond lo / hi: strays)
    double pad() const { return hi > lo ? (hi - lo) * 0.04 : std::max(std::fabs(lo) * 0.01, 1e-3); }
    double x(double v) const {
        const double from = lo - pad(), to = hi + pad();
        const double clamped = std::clamp(v, from, to);
        return kMargin + (clamped - from) / (to - from) * (kPlotWidth - 2 * kMargin);
    }
    bool beyond(double v) const { return v < lo || v > hi; }
    std::string time(double v) const {
        return plot_time(v, std::max(std::fabs(lo), std::fabs(hi)), hi - lo);
    }
};

// The whiskers of every set together, widened by their span on each side to take in mild
// strays; samples further out are strays. lo and hi are then the extreme samples within that.
Axis axis_of(const std::vector<std::vector<double>>& sets) {
    double wlo = INFINITY, whi = -INFINITY, min = INFINITY, max = -INFINITY;
    for (const auto& s : sets) {
        const BoxStats b = box_stats(s);
        wlo = std::min(wlo, b.wlo);
        whi = std::max(whi, b.whi);
        min = std::min(min, s.front());
        max = std::max(max, s.back());
    }
    const double reach = whi > wlo ? whi - wlo : std::fabs(whi) * 0.01;
    Axis a{INFINITY, -INFINITY, min, max};
    for (const auto& s : sets)
        for (double v : s)
            if (v >= wlo - reach && v <= whi + reach) {
                a.lo = std::min(a.lo, v);
                a.hi = std::max(a.hi, v);
            }
    return a;
}

std::string lane_svg(const PlotLane& lane, const std::vector<double>& sorted, const Axis& axis,
                     double top) {
    const auto [q1, med, q3, wlo, whi] = box_stats(sorted);
    std::size_t beyond = 0;
    for (double v : sorted) beyond += axis.beyond(v) ? 1 : 0;
    const double mid = top + kLaneHeight / 2;
    std::string out = "<g class=\"" + lane.css_class + "\" data-min=\"" + exact(sorted.front()) +
                      "\" data-max=\"" + exact(sorted.back()) + "\"><title>" + escape(lane.label) +
                      ": n " + std::to_string(sorted.size()) + ", median " + axis.time(med) +
                      ", quartiles " + axis.time(q1) + " – " + axis.time(q3) + ", min " +
                      axis.time(sorted.front()) + ", max " + axis.time(sorted.back());
    if (beyond) out += ", " + std::to_string(beyond) + " beyond the axis (drawn at its edge)";
    out += "</title>";
    out += "<line class=\"whisker\" x1=\"" + num(axis.x(wlo)) + "\" x2=\"" + num(axis.x(whi)) +
           "\" y1=\"" + num(mid) + "\" y2=\"" + num(mid) + "\"/>";
    out += "<rect class=\"box\" x=\"" + num(axis.x(q1)) + "\" y=\"" + num(top + 3) + "\" width=\"" +
           num(std::max(1.0, axis.x(q3) - axis.x(q1))) + "\" height=\"" + num(kLaneHeight - 6) +
           "\"/>";
    out += "<line class=\"median\" x1=\"" + num(axis.x(med)) + "\" x2=\"" + num(axis.x(med)) +
           "\" y1=\"" + num(top + 2) + "\" y2=\"" + num(top + kLaneHeight - 2) + "\"/>";
    const std::vector<double> dots = thin_to_quantiles(sorted, kMaxDots);
    for (std::size_t i = 0; i < dots.size(); ++i) {
        // A fixed low-discrepancy spread (golden-ratio steps) across the lane's height.
        const double frac = std::fmod(static_cast<double>(i) * 0.6180339887, 1.0);
        const double y = top + 3 + frac * (kLaneHeight - 6);
        const double v = dots[i];
        if (axis.beyond(v)) {
            const double x = v > axis.hi ? kPlotWidth - 4 : 4, dir = v > axis.hi ? 1 : -1;
            out += "<path class=\"beyond\" d=\"M" + num(x - 3 * dir) + " " + num(y - 3) + " L" +
                   num(x) + " " + num(y) + " L" + num(x - 3 * dir) + " " + num(y + 3) + " Z\"/>";
        } else {
            out += "<circle class=\"dot\" cx=\"" + num(axis.x(v)) + "\" cy=\"" + num(y) +
                   "\" r=\"1.6\"/>";
        }
    }
    return out + "</g>";
}

// The axis's two labels under the lanes, each at the sample it names (a tick there), the
// strays beyond it summed up beside it (that label then at the plot's edge).
std::string labels_svg(const Axis& axis, const std::vector<std::vector<double>>& sets, double top) {
    std::size_t below = 0, above = 0;
    for (const auto& s : sets)
        for (double v : s) {
            if (v < axis.lo) ++below;
            if (v > axis.hi) ++above;
        }
    // A stray's extreme is far from the axis's scale: written at its own.
    std::string lo = axis.time(axis.lo), hi = axis.time(axis.hi);
    if (below)
        lo = "◂ " + std::to_string(below) + " down to " + plot_time(axis.min, axis.min, 0) + " · " +
             lo;
    if (above)
        hi += " · " + std::to_string(above) + " up to " + plot_time(axis.max, axis.max, 0) + " ▸";
    // One value drawn (a nil span): the labels sit either side of its tick, not across it.
    const bool one = axis.hi == axis.lo;
    const bool lo_end = one && !below, hi_end = !(one && !above);
    const double lo_x = below ? 2 : std::max(2.0, axis.x(axis.lo) + (lo_end ? -4 : -3));
    const double hi_x =
        above ? kPlotWidth - 2 : std::min(kPlotWidth - 2, axis.x(axis.hi) + (hi_end ? 3 : 4));
    const double y = top + kAxisHeight - 3;
    std::string out;
    for (double v : {axis.lo, axis.hi})
        out += "<line class=\"tick\" x1=\"" + num(axis.x(v)) + "\" x2=\"" + num(axis.x(v)) +
               "\" y1=\"" + num(top) + "\" y2=\"" + num(top + 3) + "\"/>";
    const auto label = [&](const char* cls, double ns, std::optional<double> stray, double x,
                           bool end, const std::string& text) {
        return std::string("<text class=\"axis ") + cls + "\"" +
               (end ? " text-anchor=\"end\"" : "") + " data-ns=\"" + exact(ns) + "\"" +
               (stray ? " data-stray-ns=\"" + exact(*stray) + "\"" : "") + " x=\"" + num(x) +
               "\" y=\"" + num(y) + "\">" + escape(text) + "</text>";
    };
    return out +
           label("lo", axis.lo, below ? std::optional(axis.min) : std::nullopt, lo_x, lo_end, lo) +
           label("hi", axis.hi, above ? std::optional(axis.max) : std::nullopt, hi_x, hi_end, hi);
}

}  // namespace

std::string plot_time(double ns, double scale_ns, double span_ns) {
    struct Unit {
        const char* suffix;
        double scale;
        int decimals;
    };
    static constexpr Unit kUnits[] = {{"ns", 1, 2}, {"µs", 1e3, 1}, {"ms", 1e6, 1}, {"s", 1e9, 1}};
    if (!std::isfinite(ns)) return "—";
    std::size_t u = 0;
    while (u + 1 < std::size(kUnits) && std::fabs(scale_ns) / kUnits[u].scale >= 999.995) ++u;
    int decimals = kUnits[u].decimals;
    // Enough decimals to resolve a fiftieth of the span, at most 4.
    if (span_ns > 0)
        decimals = std::max(
            decimals, static_cast<int>(std::ceil(-std::log10(span_ns / kUnits[u].scale / 50))));
    decimals = std::clamp(decimals, 0, 4);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f%s", decimals, ns / kUnits[u].scale, kUnits[u].suffix);
    return buf;
}

std::string distribution_svg(const std::vector<PlotLane>& lanes) {
    std::vector<const PlotLane*> shown;
    std::vector<std::vector<double>> sorted;
    for (const auto& lane : lanes) {
        std::vector<double> s;
        for (double v : lane.samples)
            if (std::isfinite(v)) s.push_back(v);
        if (s.empty()) continue;
        std::sort(s.begin(), s.end());
        shown.push_back(&lane);
        sorted.push_back(std::move(s));
    }
    const double lanes_height =
        kLaneHeight * static_cast<double>(std::max<std::size_t>(shown.size(), 1));
    const double height = lanes_height + kAxisHeight;
    std::string out = "<svg class=\"dist\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                      num(kPlotWidth) + "\" height=\"" + num(height) + "\" viewBox=\"0 0 " +
                      num(kPlotWidth) + " " + num(height) + "\">";
    if (shown.empty())
        return out + "<text class=\"axis\" x=\"" + num(kMargin) +
               "\" y=\"14\">no samples</text></svg>";
    const Axis axis = axis_of(sorted);
    for (std::size_t i = 0; i < shown.size(); ++i)
        out += lane_svg(*shown[i], sorted[i], axis, kLaneHeight * static_cast<double>(i));
    return out + labels_svg(axis, sorted, lanes_height) + "</svg>";
}

}  // namespace glint::engine::report::html
