// engine/stats/complexity.hpp: which growth law a cost follows over a parameter (glint's
// complexity fit; Google Benchmark's ->Complexity(), nanobench's complexityN). Pure functions.
//
// For each model g(n) of O(1), O(log n), O(n), O(n log n), O(n^2), O(n^3) (log base 2), the
// coefficient c of t ≈ c*g(n) that minimises the relative residuals 1 - c*g(n)/t (least
// squares through the origin, weighted by 1/t^2: with x = g/t, c = sum(x) / sum(x*x)), and the
// root mean square of those relative residuals. The best model has the smallest RMS; on a tie
// the simpler (earlier) model wins. Relative, because timing noise is relative (a neighbour's
// load slows a row by a share of its time): an unweighted fit lets the largest values decide
// alone, and a few percent on the largest row turns O(n) into O(n log n).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace glint::engine {

inline constexpr std::size_t kComplexityModels = 6;

struct ModelFit {
    std::string_view model;  // "O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)"
    double coefficient = 0;  // t ≈ coefficient × g(n)
    double rms = 0;          // RMS of the relative residuals (0.02: 2% off on average)
};

// The evidence a fit needs to name a model: the next best model's RMS at least this many times
// the best's. Below it the fit is undecided (two laws explain the points about as well: noise,
// a constant overhead, or too narrow a range of n), and says so rather than pick one.
inline constexpr double kComplexityMargin = 2.0;

struct ComplexityFit {
    std::array<ModelFit, kComplexityModels> models;  // in the order above
    std::size_t best = 0;                            // index into models
    std::size_t runner_up = 1;                       // the next smallest RMS
    const ModelFit& best_fit() const { return models[best]; }
    const ModelFit& runner_up_fit() const { return models[runner_up]; }
    bool decided() const { return models[runner_up].rms >= kComplexityMargin * models[best].rms; }
};

// The smallest number of distinct parameter values a fit needs.
inline constexpr std::size_t kMinComplexityPoints = 3;

// Fits times `t` (any unit) measured at parameter values `n` (same length). nullopt, with
// `why` set, when fewer than kMinComplexityPoints distinct n, an n below 1, or a t that is not
// a positive finite number.
std::optional<ComplexityFit> fit_complexity(const std::vector<double>& n,
                                            const std::vector<double>& t, std::string& why);

// The model's g(n) written with the parameter's name: "1", "log n", "n", "n log n", "n^2", ...
std::string model_term(std::string_view model, std::string_view n_name);

}  // namespace glint::engine
