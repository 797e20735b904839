#include "engine/stats/complexity.hpp"

#include <algorithm>
#include <cmath>

namespace glint::engine {
namespace {

struct Model {
    std::string_view name;
    double (*g)(double);
};

constexpr Model kModels[kComplexityModels] = {
    {"O(1)", [](double) { return 1.0; }},
    {"O(log n)", [](double n) { return std::log2(n); }},
    {"O(n)", [](double n) { return n; }},
    {"O(n log n)", [](double n) { return n * std::log2(n); }},
    {"O(n^2)", [](double n) { return n * n; }},
    {"O(n^3)", [](double n) { return n * n * n; }},
};

}  // namespace

std::optional<ComplexityFit> fit_complexity(const std::vector<double>& n,
                                            const std::vector<double>& t, std::string& why) {
    if (n.size() != t.size()) {
        why = "the parameter values and the times differ in number";
        return std::nullopt;
    }
    std::vector<double> distinct = n;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() < kMinComplexityPoints) {
        why = "needs at least " + std::to_string(kMinComplexityPoints) +
              " distinct parameter values, got " + std::to_string(distinct.size());
        return std::nullopt;
    }
    for (std::size_t i = 0; i < n.size(); ++i) {
        if (!(n[i] >= 1) || !std::isfinite(n[i])) {
            why = "parameter values must be at least 1 (log n is taken)";
            return std::nullopt;
        }
        if (!(t[i] > 0) || !std::isfinite(t[i])) {
            why = "a time is 0, negative or not a number (the fit is relative to each time)";
            return std::nullopt;
        }
    }
    ComplexityFit fit;
    for (std::size_t m = 0; m < kComplexityModels; ++m) {
        // Relative residuals 1 - c*g/t: with x = g/t, c = sum(x) / sum(x*x).
        double sx = 0, sxx = 0;
        for (std::size_t i = 0; i < n.size(); ++i) {
            const double x = kModels[m].g(n[i]) / t[i];
            sx += x;
            sxx += x * x;
        }
        const double c = sxx > 0 ? sx / sxx : 0;
        double ss = 0;
        for (std::size_t i = 0; i < n.size(); ++i) {
            const double r = 1 - c * kModels[m].g(n[i]) / t[i];
            ss += r * r;
        }
        fit.models[m] = {kModels[m].name, c, std::sqrt(ss / static_cast<double>(n.size()))};
        if (fit.models[m].rms < fit.models[fit.best].rms) fit.best = m;
    }
    fit.runner_up = fit.best == 0 ? 1 : 0;
    for (std::size_t m = 0; m < kComplexityModels; ++m)
        if (m != fit.best && fit.models[m].rms < fit.models[fit.runner_up].rms) fit.runner_up = m;
    return fit;
}

std::string model_term(std::string_view model, std::string_view n_name) {
    const std::string n(n_name);
    if (model == "O(1)") return "1";
    if (model == "O(log n)") return "log " + n;
    if (model == "O(n)") return n;
    if (model == "O(n log n)") return n + " log " + n;
    if (model == "O(n^2)") return n + "^2";
    if (model == "O(n^3)") return n + "^3";
    return std::string(model);
}

}  // namespace glint::engine
