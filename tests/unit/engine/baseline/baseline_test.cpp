// --bench-baseline: the rank test against reference values, the document checks, row matching.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/baseline/baseline.hpp"
#include "engine/stats/rank_test.hpp"

using namespace glint::engine;

namespace {

std::string write_temp(const std::string& text) {
    const std::string path = "/tmp/glint_baseline_test_" + std::to_string(getpid()) + ".json";
    std::ofstream(path) << text;
    return path;
}

Row timed(std::string name, Labels labels, std::vector<double> samples, double median) {
    Row row;
    row.name = std::move(name);
    row.labels = std::move(labels);
    TimingSummary t;
    t.samples = samples.size();
    t.median_ns = median;
    t.sample_ns = std::move(samples);
    row.timing = t;
    return row;
}

}  // namespace

TEST_CASE("baseline: Mann-Whitney p against hand-computed normal approximations") {
    // Fully separated 5 vs 5: U = 0, mean 12.5, variance 25/12 * 11; z = (12.5 - 0.5) / 4.7871.
    const std::vector<double> low{1, 2, 3, 4, 5}, high{6, 7, 8, 9, 10};
    CHECK(mann_whitney_p(low, high) == doctest::Approx(0.012186).epsilon(1e-4));
    CHECK(mann_whitney_p(high, low) == doctest::Approx(0.012186).epsilon(1e-4));
    // Identical sets with ties: U sits exactly at its mean.
    const std::vector<double> a{1, 2, 3}, b{1, 2, 3};
    CHECK(mann_whitney_p(a, b) == doctest::Approx(1.0));
    // Nothing to rank: every value tied, or a side too small.
    const std::vector<double> same{4, 4, 4}, one{1};
    CHECK(std::isnan(mann_whitney_p(same, same)));
    CHECK(std::isnan(mann_whitney_p(one, low)));
    // Interleaved 1..8 split odd/even: U1 = 6, mean 8, variance 16*9/12 = 12; z = 1.5/3.4641.
    const std::vector<double> odd{1, 3, 5, 7}, even{2, 4, 6, 8};
    CHECK(mann_whitney_p(odd, even) == doctest::Approx(0.665006).epsilon(1e-4));
}

TEST_CASE("baseline: rows match by name and labels, unmatched or unresolved rows give null") {
    const std::string path = write_temp(R"({"schema": 2, "meta": {"host": "h1"}, "rows": [
        {"name": "a", "labels": {}, "medianNs": 10, "samplesNs": [9, 10, 11, 10]},
        {"name": "m", "labels": {"size": "4KiB", "op": "copy"}, "medianNs": 100,
         "samplesNs": [100, 100, 101, 99]},
        {"name": "broken", "labels": {}, "medianNs": null, "samplesNs": null, "error": "x"},
        {"name": "tiny", "labels": {}, "perCall": true, "medianNs": 0, "resolutionNs": 20,
         "medianResolved": false, "samplesNs": [0, 0, 3]}]})");
    std::string error;
    auto baseline = load_baseline(path, error);
    std::remove(path.c_str());
    REQUIRE_MESSAGE(baseline, error);
    CHECK(baseline->rows.size() == 2);  // neither the error row nor the unresolved one

    auto change = [&](const Row& row) { return baseline_cells(*baseline, row).at(0).value; };
    auto p = [&](const Row& row) { return baseline_cells(*baseline, row).at(1).value; };
    const Row faster = timed("a", {}, {4, 5, 6, 5}, 5);
    CHECK(change(faster) == doctest::Approx(-50.0));
    CHECK(p(faster) < 0.05);
    // Labels are part of the identity (sorted: op before size).
    const Row same = timed("m", {{"op", "copy"}, {"size", "4KiB"}}, {100, 100, 101, 99}, 100);
    CHECK(change(same) == doctest::Approx(0.0));
    CHECK(p(same) == doctest::Approx(1.0));
    CHECK(std::isnan(change(timed("m", {{"op", "copy"}, {"size", "1MiB"}}, {1, 2}, 1))));
    CHECK(std::isnan(change(timed("new", {}, {1, 2}, 1))));
    // A per-call median below the clock bracket is not a number to compare.
    Row unresolved = timed("a", {}, {0, 0, 1, 0}, 0);
    unresolved.timing->per_call = true;
    unresolved.timing->resolution_ns = 20;
    CHECK(std::isnan(change(unresolved)));
    CHECK(std::isnan(p(unresolved)));
}

TEST_CASE("baseline: a file that is not a schema-2 document is refused with the reason") {
    std::string error;
    CHECK_FALSE(load_baseline("/nonexistent/glint.json", error));
    CHECK(error.find("cannot read '/nonexistent/glint.json'") != std::string::npos);
    CHECK(error.find("--bench-json") != std::string::npos);

    for (const auto& entry : std::vector<std::pair<std::string, std::string>>{
             {"{not json", "is not JSON"},
             {R"({"schema": 1, "rows": []})", "schema 2"},
             {R"({"schema": 2})", "no rows array"}}) {
        const std::string& text = entry.first;  // clang 14 captures no structured binding
        const std::string& reason = entry.second;
        CAPTURE(text);
        const std::string path = write_temp(text);
        error.clear();
        CHECK_FALSE(load_baseline(path, error));
        std::remove(path.c_str());
        CHECK(error.find(reason) != std::string::npos);
    }
}

TEST_CASE("baseline: a file larger than 256 MiB is refused before it is read") {
    CHECK(kMaxBaselineBytes == std::size_t{256} * 1024 * 1024);
    const std::string path = write_temp("");
    std::filesystem::resize_file(path, kMaxBaselineBytes + 1);  // sparse: nothing is written
    std::string error;
    CHECK_FALSE(load_baseline(path, error));
    std::remove(path.c_str());
    CHECK(error == "'" + path + "' is 257 MiB, more than the 256 MiB glint reads");
}
