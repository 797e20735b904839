// The --bench-json document keeps at most kDocumentSamples samples a row by default (thinned
// order statistics): bounded whatever a case measured, and every verdict of glint-compare and
// --bench-baseline on it equals the verdict on the full document.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "engine/baseline/baseline.hpp"
#include "engine/compare/compare.hpp"
#include "engine/compare/document.hpp"
#include "engine/report/json_report.hpp"
#include "rows.hpp"

using namespace glint::engine;
using glint::engine::report::testing::per_call;
using glint::engine::report::testing::timed_row;

namespace {

// Per-call rows of `samples` samples each over `repetitions` repetitions, their times scaled
// by `scale[i]` (row i), with noise.
std::vector<Row> rows_of(std::size_t samples, std::size_t repetitions,
                         const std::vector<double>& scale, unsigned seed) {
    std::mt19937 rng(seed);
    std::lognormal_distribution<double> noise(0, 0.05);
    std::vector<Row> rows;
    for (std::size_t i = 0; i < scale.size(); ++i) {
        TimingSummary t = per_call(samples * repetitions, 0, 0, 0, 0);
        for (std::size_t r = 0; r < repetitions; ++r) {
            std::vector<double> rep;
            for (std::size_t s = 0; s < samples; ++s) rep.push_back(100 * scale[i] * noise(rng));
            std::sort(rep.begin(), rep.end());
            t.repetition_median_ns.push_back(rep[rep.size() / 2]);
            t.sample_ns.insert(t.sample_ns.end(), rep.begin(), rep.end());
        }
        std::vector<double> medians = t.repetition_median_ns;
        std::sort(medians.begin(), medians.end());
        t.median_ns = medians[medians.size() / 2];
        Row row = timed_row("case" + std::to_string(i), t);
        row.registration = "reg";
        rows.push_back(row);
    }
    return rows;
}

std::string document_text(const std::vector<Row>& rows, SampleDetail detail) {
    return build_document(Json::object(), {}, rows, detail).dump(2);
}

RunDocument parsed(const std::string& text) {
    std::string error;
    auto doc = parse_document(text, "doc.json", error);
    REQUIRE_MESSAGE(doc, error);
    return *doc;
}

void check_same_changes(const Comparison& full, const Comparison& thin) {
    REQUIRE(full.rows.size() == thin.rows.size());
    for (std::size_t i = 0; i < full.rows.size(); ++i) {
        const auto& a = full.rows[i].changes.at(0);
        const auto& b = thin.rows[i].changes.at(0);
        CAPTURE(i);
        REQUIRE(a.change.has_value() == b.change.has_value());
        if (!a.change) continue;
        CHECK(a.change->verdict == b.change->verdict);
        CHECK(a.change->basis == b.change->basis);
        CHECK(a.change->ratio == b.change->ratio);
        CHECK((a.change->low == b.change->low ||
               (std::isnan(a.change->low) && std::isnan(b.change->low))));
        CHECK((a.change->high == b.change->high ||
               (std::isnan(a.change->high) && std::isnan(b.change->high))));
    }
}

}  // namespace

TEST_CASE("json report: a row of 100000 samples keeps 256 order statistics, min and max included") {
    const auto rows = rows_of(20000, 5, {1.0}, 1);
    const Json doc = Json::parse(document_text(rows, SampleDetail::thinned));
    const Json& row = doc.at("rows").as_array().at(0);
    const auto& kept = row.at("samplesNs").as_array();
    CHECK(kept.size() == kDocumentSamples);
    CHECK(row.at("samplesNsThinned").as_bool());
    CHECK(row.at("samples").as_number() == 100000);  // the count measured, not the count kept
    CHECK(row.at("repetitionMediansNs").size() == 5);
    const auto& all = rows[0].timing->sample_ns;
    CHECK(kept.front().as_number() == doctest::Approx(*std::min_element(all.begin(), all.end())));
    CHECK(kept.back().as_number() == doctest::Approx(*std::max_element(all.begin(), all.end())));
    // Eight such rows stay well under 100 KB; --bench-json-samples=all keeps every sample.
    const auto eight = rows_of(20000, 5, std::vector<double>(8, 1.0), 2);
    CHECK(document_text(eight, SampleDetail::thinned).size() < 100 * 1024);
    const Json full = Json::parse(document_text(rows, SampleDetail::all));
    CHECK(full.at("rows").as_array().at(0).at("samplesNs").size() == 100000);
    CHECK_FALSE(full.at("rows").as_array().at(0).contains("samplesNsThinned"));
}

TEST_CASE(
    "json report: glint-compare and --bench-baseline verdicts on thinned documents equal those on "
    "full ones") {
    // Single runs (the samples basis) and five repetitions (the repetitions basis), each with
    // rows unchanged, slightly and much slower or faster.
    const std::vector<double> base_scale{1, 1, 1, 1, 1, 1}, next_scale{1, 1.02, 1.5, 0.5, 4, 0.2};
    for (std::size_t repetitions : {std::size_t{1}, std::size_t{5}}) {
        CAPTURE(repetitions);
        const auto base_rows = rows_of(3000, repetitions, base_scale, 10);
        const auto next_rows = rows_of(3000, repetitions, next_scale, 11);
        const std::string base_full = document_text(base_rows, SampleDetail::all);
        const std::string base_thin = document_text(base_rows, SampleDetail::thinned);
        REQUIRE(base_thin.size() * 4 < base_full.size());
        const RunDocument bf = parsed(base_full), bt = parsed(base_thin);
        const RunDocument nf = parsed(document_text(next_rows, SampleDetail::all));
        const RunDocument nt = parsed(document_text(next_rows, SampleDetail::thinned));
        const CompareSettings settings;
        const Comparison full = compare_documents({&bf, &nf}, settings, 0.05);
        const Comparison thin = compare_documents({&bt, &nt}, settings, 0.05);
        check_same_changes(full, thin);
        std::size_t decided = 0;
        for (const auto& row : full.rows)
            decided +=
                row.changes.at(0).change && row.changes.at(0).change->verdict != Verdict::noisy;
        CHECK(decided >= 1);  // the comparison decides something: not a vacuous equality

        std::string error;
        const auto with_full =
            baseline_from_text(base_full, "base.json", CompareReportOptions{}, error);
        const auto with_thin =
            baseline_from_text(base_thin, "base.json", CompareReportOptions{}, error);
        REQUIRE(with_full);
        REQUIRE(with_thin);
        const BaselineComparison run_full(*with_full, next_rows), run_thin(*with_thin, next_rows);
        check_same_changes(run_full.comparison(), run_thin.comparison());
        CHECK(run_full.text(CompareFormat::box) == run_thin.text(CompareFormat::box));
    }
}
