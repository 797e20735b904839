// The complexity fit (engine/stats/complexity.hpp) on synthetic costs with a known law.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/stats/complexity.hpp"

using namespace glint::engine;

namespace {

const std::vector<double> kSizes = {64, 512, 4096, 32768};  // the e2e fixture's sizes

std::vector<double> costs(double (*law)(double), double noise = 0) {
    std::vector<double> t;
    for (std::size_t i = 0; i < kSizes.size(); ++i)  // alternating relative noise
        t.push_back(law(kSizes[i]) * (1 + (i % 2 ? noise : -noise)));
    return t;
}

std::string best_of(const std::vector<double>& t) {
    std::string why;
    const auto fit = fit_complexity(kSizes, t, why);
    REQUIRE(fit);
    return std::string(fit->best_fit().model);
}

}  // namespace

TEST_CASE("complexity: each law is recognised, with 5% noise") {
    CHECK(best_of(costs([](double) { return 40.0; }, 0.05)) == "O(1)");
    CHECK(best_of(costs([](double n) { return 3 * std::log2(n); }, 0.05)) == "O(log n)");
    CHECK(best_of(costs([](double n) { return 1.5 * n; }, 0.05)) == "O(n)");
    CHECK(best_of(costs([](double n) { return 0.2 * n * std::log2(n); }, 0.05)) == "O(n log n)");
    CHECK(best_of(costs([](double n) { return 1e-3 * n * n; }, 0.05)) == "O(n^2)");
    CHECK(best_of(costs([](double n) { return 1e-7 * n * n * n; }, 0.05)) == "O(n^3)");
}

TEST_CASE("complexity: a linear cost with a constant overhead still fits O(n)") {
    CHECK(best_of(costs([](double n) { return 20 + 1.1 * n; })) == "O(n)");
}

TEST_CASE("complexity: the coefficient minimises the relative residuals, the rms is theirs") {
    std::string why;
    const auto fit = fit_complexity(kSizes, costs([](double n) { return 2.5 * n; }), why);
    REQUIRE(fit);
    CHECK(fit->best == 2);
    CHECK(fit->best_fit().coefficient == doctest::Approx(2.5));
    CHECK(fit->best_fit().rms == doctest::Approx(0).epsilon(1e-9));
    // O(1) on t = 2.5 n: with x = 1/t, c = sum(x) / sum(x^2), residuals 1 - c/t.
    double sx = 0, sxx = 0;
    for (double n : kSizes) {
        sx += 1 / (2.5 * n);
        sxx += 1 / (2.5 * n) / (2.5 * n);
    }
    const double c = sx / sxx;
    double ss = 0;
    for (double n : kSizes) ss += (1 - c / (2.5 * n)) * (1 - c / (2.5 * n));
    CHECK(fit->models[0].coefficient == doctest::Approx(c));
    CHECK(fit->models[0].rms == doctest::Approx(std::sqrt(ss / 4)));
}

TEST_CASE("complexity: a largest row 20% to 70% slow does not turn O(n) into O(n log n)") {
    // What a neighbour's load did to the e2e fixture on a shared VM (its largest row 64% slow
    // per element): an unweighted fit, which the largest row dominates, picks O(n log n) for
    // every one of these; the relative fit keeps O(n).
    for (double slow : {1.2, 1.3, 1.5, 1.7}) {
        std::vector<double> t;
        for (double n : kSizes) t.push_back(1.5 * n);
        t.back() *= slow;
        CHECK(best_of(t) == "O(n)");
    }
}

TEST_CASE("complexity: too few distinct values, values below 1 or bad times give a reason") {
    std::string why;
    CHECK_FALSE(fit_complexity({10, 10, 20}, {1, 1, 2}, why));
    CHECK(why == "needs at least 3 distinct parameter values, got 2");
    CHECK_FALSE(fit_complexity({0, 10, 20}, {1, 1, 2}, why));
    CHECK(why.find("at least 1") != std::string::npos);
    CHECK_FALSE(fit_complexity({1, 10, 20}, {1, NAN, 2}, why));
    CHECK_FALSE(fit_complexity({1, 10, 20}, {0, 1, 2}, why));
    CHECK(why.find("a time is 0") != std::string::npos);
}

TEST_CASE("complexity: the model's term names the parameter") {
    CHECK(model_term("O(n log n)", "size") == "size log size");
    CHECK(model_term("O(1)", "size") == "1");
    CHECK(model_term("O(n^2)", "k") == "k^2");
}

TEST_CASE("complexity: a fit names its model only when the next fits kComplexityMargin x worse") {
    std::string why;
    // Clear evidence: ±10% noise over sizes a factor of 8 apart (next 2.8x worse).
    auto fit = fit_complexity(kSizes, costs([](double n) { return 1.5 * n; }, 0.10), why);
    REQUIRE(fit);
    CHECK(fit->decided());
    CHECK(fit->runner_up_fit().model == "O(n log n)");
    // ±20% noise: O(n) still fits best, O(n log n) only 1.5x worse: undecided.
    fit = fit_complexity(kSizes, costs([](double n) { return 1.5 * n; }, 0.20), why);
    REQUIRE(fit);
    CHECK(fit->best_fit().model == "O(n)");
    CHECK_FALSE(fit->decided());
    // The linear hash: a constant overhead over small lengths fits no law well, so O(n)
    // and O(n log n) traded places run to run; now it is undecided.
    const std::vector<double> lens = {16, 64, 256, 1024, 4096};
    std::vector<double> t;
    for (double n : lens) t.push_back(30 + 0.5 * n);
    fit = fit_complexity(lens, t, why);
    REQUIRE(fit);
    CHECK_FALSE(fit->decided());
    CHECK(fit->runner_up != fit->best);
    // An exact law: the next model's rms over an rms of 0 is always enough.
    fit = fit_complexity(kSizes, costs([](double n) { return 2.5 * n; }), why);
    REQUIRE(fit);
    CHECK(fit->decided());
}
