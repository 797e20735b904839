// --bench-baseline: the document checks, row matching by identity, the change cell, and the
// comparison a run prints (glint-compare's code).
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/baseline/baseline.hpp"
#include "engine/report/units.hpp"

#include "support/temp_dir.hpp"

using namespace glint::engine;

namespace {

std::string write_temp(const std::string& text) {
    const std::string path = glint::test::temp_path("baseline_test.json");
    std::ofstream(path) << text;
    return path;
}

Row timed(std::string registration, std::string name, Labels labels, std::vector<double> samples,
          double median) {
    Row row;
    row.registration = std::move(registration);
    row.name = std::move(name);
    row.labels = std::move(labels);
    TimingSummary t;
    t.samples = samples.size();
    t.median_ns = median;
    t.sample_ns = std::move(samples);
    t.repetition_median_ns = {median};
    row.timing = t;
    return row;
}

std::optional<Baseline> load(const std::string& text, std::string& error) {
    const std::string path = write_temp(text);
    auto b = load_baseline(path, CompareReportOptions{}, error);
    std::remove(path.c_str());
    return b;
}

}  // namespace

TEST_CASE(
    "baseline: rows match by registration, name and labels, unmatched or unresolved give null") {
    std::string error;
    const auto baseline = load(R"({"schema": 2, "meta": {"host": "h1"}, "rows": [
        {"name": "impl", "registration": "fast", "labels": {}, "medianNs": 10, "samplesNs": [9, 10, 11, 10]},
        {"name": "impl", "registration": "slow", "labels": {}, "medianNs": 40, "samplesNs": [40, 40]},
        {"name": "m", "registration": "m", "labels": {"size": "4KiB", "op": "copy"}, "medianNs": 100,
         "samplesNs": [100, 100, 101, 99]},
        {"name": "broken", "registration": "broken", "labels": {}, "medianNs": null, "samplesNs": null, "error": "x"},
        {"name": "tiny", "registration": "tiny", "labels": {}, "perCall": true, "medianNs": 0,
         "resolutionNs": 20, "medianResolved": false, "samplesNs": [0, 0, 3]}]})",
                               error);
    REQUIRE_MESSAGE(baseline, error);
    auto change = [&](const Row& row) { return baseline_cells(*baseline, row).at(0).value; };
    // fast/impl is compared with fast/impl only, never with slow/impl.
    CHECK(change(timed("fast", "impl", {}, {5, 5, 5}, 5)) == doctest::Approx(-50.0));
    CHECK(change(timed("slow", "impl", {}, {20, 20}, 20)) == doctest::Approx(-50.0));
    CHECK(std::isnan(change(timed("other", "impl", {}, {5}, 5))));
    // Labels are identity too (sorted: op before size).
    // The change is the Hodges–Lehmann estimate over the samples (one run a side): the median of
    // the pairwise log ratios, here halfway between 0 and log(101/100).
    CHECK(change(timed("m", "m", {{"size", "4KiB"}, {"op", "copy"}}, {100, 101}, 100)) ==
          doctest::Approx(100 * (std::sqrt(1.01) - 1)));
    CHECK(std::isnan(change(timed("m", "m", {{"op", "copy"}, {"size", "1MiB"}}, {1, 2}, 1))));
    // Error rows and unresolved per-call medians are not numbers to compare, on either side.
    CHECK(std::isnan(change(timed("broken", "broken", {}, {1}, 1))));
    CHECK(std::isnan(change(timed("tiny", "tiny", {}, {5}, 5))));
    Row unresolved = timed("fast", "impl", {}, {0, 0, 1, 0}, 0);
    unresolved.timing->per_call = true;
    unresolved.timing->resolution_ns = 20;
    CHECK(std::isnan(change(unresolved)));
    CHECK(baseline_header(*baseline).find("baseline: ") == 0);
    CHECK(baseline_header(*baseline).find("(5 rows, measured on h1)") != std::string::npos);
}

TEST_CASE("baseline: the run's comparison, its meta and its gate") {
    std::string error;
    std::string path = write_temp(R"({"schema": 2, "meta": {"host": "h1"}, "rows": [
        {"name": "a", "registration": "a", "labels": {}, "medianNs": 100,
         "repetitionMediansNs": [100, 101, 99, 100, 100], "samplesNs": [100, 101, 99, 100, 100]},
        {"name": "gone", "registration": "gone", "labels": {}, "medianNs": 5}]})");
    CompareReportOptions options;
    options.gate = 0.10;
    const auto baseline = load_baseline(path, options, error);
    std::remove(path.c_str());
    REQUIRE_MESSAGE(baseline, error);
    Row slower = timed("a", "a", {}, {130, 131, 129, 130, 130}, 130);
    slower.timing->repetition_median_ns = {130, 131, 129, 130, 130};
    const BaselineComparison c(*baseline, {slower});
    CHECK(c.gate_failed());
    CHECK(c.text(CompareFormat::box).find("this run vs ") != std::string::npos);
    const Json meta = c.meta();
    CHECK(meta.at("matched") == Json(1));
    CHECK(meta.at("rows") == Json(2));
    CHECK(meta.at("comparison").at("gate").at("failed") == Json(true));
    CHECK(c.gate_status() == 1);
    // Unchanged; the baseline's "gone" row was not measured (a benchmark removed, or a filtered
    // run): counted, not gated, so the gate passes.
    Row same = slower;
    same.timing->repetition_median_ns = {100, 101, 99, 100, 100};
    same.timing->median_ns = 100;
    same.timing->sample_ns = {100, 101, 99, 100, 100};
    CHECK(BaselineComparison(*baseline, {same}).gate_status() == 0);
    CHECK(BaselineComparison(*baseline, {same})
              .text(CompareFormat::box)
              .find("not gated: 1 only in base") != std::string::npos);
    Baseline filtered = *baseline;
    filtered.options.hide_only_in_base = true;
    CHECK(BaselineComparison(filtered, {same}).gate_status() == 0);
    Baseline allowing = *baseline;
    allowing.options.allow_unjudged = true;
    CHECK(BaselineComparison(allowing, {same}).gate_status() == 0);
    // The live table's vs base is signed as glint-compare prints it.
    const auto cell = baseline_cells(*baseline, slower).at(0);
    CHECK(cell.format == glint::catalog::Format::change);
    CHECK(report::format_metric(cell) == "+30.00%");
    // Toned for a coloured table only where the verdict is confident: slower, faster, or plain.
    CHECK(cell.tone == glint::catalog::Tone::worse);
    Row faster = slower;
    faster.timing->repetition_median_ns = {70, 71, 69, 70, 70};
    faster.timing->median_ns = 70;
    CHECK(baseline_cells(*baseline, faster).at(0).tone == glint::catalog::Tone::better);
    CHECK(baseline_cells(*baseline, same).at(0).tone == glint::catalog::Tone::neutral);
    Row one_rep = timed("a", "a", {}, {131, 129}, 130);  // a per-sample verdict needs ×4: none here
    CHECK(baseline_cells(*baseline, one_rep).at(0).tone == glint::catalog::Tone::neutral);
}

TEST_CASE("baseline: a file that is not a schema-2 document is refused with the reason") {
    std::string error;
    CHECK_FALSE(load_baseline("/nonexistent/glint.json", CompareReportOptions{}, error));
    CHECK(error.find("cannot read '/nonexistent/glint.json'") != std::string::npos);
    CHECK(error.find("--bench-json") != std::string::npos);

    for (
        const auto& entry : std::vector<std::pair<std::string, std::string>>{
            {"{not json", "is not JSON"},
            {R"({"schema": 1, "rows": []})", "schema 2"},
            {R"({"schema": 2})", "no rows array"},
            {std::string(50000, '[') + std::string(50000, ']'), "nests deeper than 64 levels"},
            {R"({"schema": 2, "rows": [{"name": "a", "registration": "r"}, {"name": "a", "registration": "r"}]})",
             "two rows with the identity registration 'r', name 'a'"}}) {
        const std::string& text = entry.first;  // clang 14 captures no structured binding
        const std::string& reason = entry.second;
        CAPTURE(reason);
        error.clear();
        CHECK_FALSE(load(text, error));
        CHECK(error.find(reason) != std::string::npos);
    }
}

TEST_CASE("baseline: a file larger than 256 MiB is refused before it is read") {
    CHECK(kMaxDocumentBytes == std::size_t{256} * 1024 * 1024);
    const std::string path = write_temp("");
    std::filesystem::resize_file(path, kMaxDocumentBytes + 1);  // sparse: nothing is written
    std::string error;
    CHECK_FALSE(load_baseline(path, CompareReportOptions{}, error));
    std::remove(path.c_str());
    CHECK(error == "'" + path + "' is 257 MiB, more than the 256 MiB glint reads");
}
