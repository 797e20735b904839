#include "engine/report/html/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/report/html/html_report.hpp"
#include "engine/report/units.hpp"
#include "engine/stats/shift.hpp"

namespace glint::engine::report::html {
namespace {

constexpr double kWidth = 320, kLaneHeight = 20, kAxisHeight = 12, kMargin = 6;

// Linear interpolation between order statistics (sorted must be non-empty).
double quantile(const std::vector<double>& sorted, double p) {
    const double pos = p * static_cast<double>(sorted.size() - 1);
    const auto i = static_cast<std::size_t>(pos);
    if (i + 1 >= sorted.size()) return sorted.back();
    return sorted[i] + (pos - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

struct Axis {
    double lo, hi;
    double x(double v) const {
        const double clamped = std::clamp(v, lo, hi);
        return kMargin + (clamped - lo) / (hi - lo) * (kWidth - 2 * kMargin);
    }
};

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

// From the lowest whisker to the highest of every set, padded by 5% of the span (1% of the
// value when the span is nil): the boxes stay readable however long the tails are.
Axis axis_of(const std::vector<std::vector<double>>& sets) {
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& s : sets) {
        const BoxStats b = box_stats(s);
        lo = std::min(lo, b.wlo);
        hi = std::max(hi, b.whi);
    }
    const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(std::fabs(lo) * 0.01, 1e-3);
    return {lo - pad, hi + pad};
}

std::string lane_svg(const PlotLane& lane, const std::vector<double>& sorted, const Axis& axis,
                     double top) {
    const auto [q1, med, q3, wlo, whi] = box_stats(sorted);
    std::size_t beyond = 0;
    for (double v : sorted) beyond += (v < axis.lo || v > axis.hi) ? 1 : 0;
    const double mid = top + kLaneHeight / 2;
    std::string out = "<g class=\"" + lane.css_class + "\"><title>" + escape(lane.label) + ": n " +
                      std::to_string(sorted.size()) + ", median " + format_time_ns(med) + ", quartiles " +
                      format_time_ns(q1) + " – " + format_time_ns(q3) + ", min " +
                      format_time_ns(sorted.front()) + ", max " + format_time_ns(sorted.back());
    if (beyond) out += ", " + std::to_string(beyond) + " beyond the axis (drawn at its edge)";
    out += "</title>";
    out += "<line class=\"whisker\" x1=\"" + num(axis.x(wlo)) + "\" x2=\"" + num(axis.x(whi)) +
           "\" y1=\"" + num(mid) + "\" y2=\"" + num(mid) + "\"/>";
    out += "<rect class=\"box\" x=\"" + num(axis.x(q1)) + "\" y=\"" + num(top + 3) + "\" width=\"" +
           num(std::max(1.0, axis.x(q3) - axis.x(q1))) + "\" height=\"" + num(kLaneHeight - 6) + "\"/>";
    out += "<line class=\"median\" x1=\"" + num(axis.x(med)) + "\" x2=\"" + num(axis.x(med)) +
           "\" y1=\"" + num(top + 2) + "\" y2=\"" + num(top + kLaneHeight - 2) + "\"/>";
    const std::vector<double> dots = thin_to_quantiles(sorted, kMaxDots);
    for (std::size_t i = 0; i < dots.size(); ++i) {
        // A fixed low-discrepancy spread (golden-ratio steps) across the lane's height.
        const double frac = std::fmod(static_cast<double>(i) * 0.6180339887, 1.0);
        const double y = top + 3 + frac * (kLaneHeight - 6);
        const double v = dots[i];
        if (v < axis.lo || v > axis.hi) {
            const double x = axis.x(v), dir = v > axis.hi ? 1 : -1;
            out += "<path class=\"beyond\" d=\"M" + num(x) + " " + num(y - 3) + " L" + num(x + 3 * dir) +
                   " " + num(y) + " L" + num(x) + " " + num(y + 3) + " Z\"/>";
        } else {
            out += "<circle class=\"dot\" cx=\"" + num(axis.x(v)) + "\" cy=\"" + num(y) + "\" r=\"1.6\"/>";
        }
    }
    return out + "</g>";
}

}  // namespace

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
    const double height = kLaneHeight * static_cast<double>(std::max<std::size_t>(shown.size(), 1)) + kAxisHeight;
    std::string out = "<svg class=\"dist\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) +
                      "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(kWidth) + " " + num(height) + "\">";
    if (shown.empty())
        return out + "<text class=\"axis\" x=\"" + num(kMargin) + "\" y=\"14\">no samples</text></svg>";
    const Axis axis = axis_of(sorted);
    for (std::size_t i = 0; i < shown.size(); ++i)
        out += lane_svg(*shown[i], sorted[i], axis, kLaneHeight * static_cast<double>(i));
    const double base = kLaneHeight * static_cast<double>(shown.size()) + kAxisHeight - 2;
    out += "<text class=\"axis\" x=\"" + num(kMargin) + "\" y=\"" + num(base) + "\">" +
           escape(format_time_ns(axis.lo)) + "</text>";
    out += "<text class=\"axis\" text-anchor=\"end\" x=\"" + num(kWidth - kMargin) + "\" y=\"" + num(base) +
           "\">" + escape(format_time_ns(axis.hi)) + "</text>";
    return out + "</svg>";
}

}  // namespace glint::engine::report::html
