// Reading --bench-json documents for comparison: identity, old documents, bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "engine/compare/document.hpp"

using namespace glint::engine;

namespace {

std::optional<RunDocument> parse(const std::string& text, std::string& error) {
    return parse_document(text, "doc.json", error);
}

}  // namespace

TEST_CASE("document: rows carry registration, name, sorted labels, repetition medians, metrics") {
    std::string error;
    const auto doc = parse(R"({"schema": 2, "meta": {"host": "h"}, "columns": [
        {"name": "instr", "header": "instr", "format": "count"}], "rows": [
        {"name": "impl", "registration": "fast", "labels": {"z": "1", "a": "x"}, "perCall": false,
         "medianNs": 10, "samplesNs": [9, 10, null, 11], "repetitionMediansNs": [10, 11, 9],
         "metrics": {"instr": 42, "ipc": null}},
        {"name": "impl", "registration": "slow", "labels": {}, "medianNs": 20,
         "metrics": {"instr": 50}, "estimatedMetrics": ["instr"]},
        {"name": "broken", "registration": "slow", "labels": {}, "medianNs": null, "error": "boom"}]})",
                           error);
    REQUIRE_MESSAGE(doc, error);
    CHECK(doc->host == "h");
    CHECK(doc->has_registrations);
    REQUIRE(doc->rows.size() == 3);
    const DocumentRow& fast = doc->rows[0];
    CHECK(fast.registration == "fast");
    CHECK(fast.labels == Labels{{"a", "x"}, {"z", "1"}});
    CHECK(fast.samples_ns == std::vector<double>{9, 10, 11});  // null samples dropped
    CHECK(fast.repetition_medians_ns == std::vector<double>{10, 11, 9});
    CHECK(fast.instructions() == 42.0);
    CHECK(std::isnan(fast.metric("ipc")));
    CHECK(identity_text(fast) == "fast/impl [a=x,z=1]");
    // Without repetitionMediansNs the median is the one repetition; a scaled count is no anchor.
    CHECK(doc->rows[1].repetition_medians_ns == std::vector<double>{20});
    CHECK_FALSE(doc->rows[1].instructions());
    CHECK(doc->rows[2].error == "boom");
    CHECK(std::isnan(doc->rows[2].median_ns));
    // Two registrations' "impl" rows are two identities.
    CHECK(identity_key(doc->rows[0], true) != identity_key(doc->rows[1], true));
    CHECK_FALSE(duplicate_identity(*doc));
}

TEST_CASE("document: a duplicate identity is an error naming it") {
    std::string error;
    CHECK_FALSE(parse(R"({"schema": 2, "rows": [
        {"name": "impl", "registration": "fast", "labels": {"n": "1"}, "medianNs": 1},
        {"name": "impl", "registration": "fast", "labels": {"n": "1"}, "medianNs": 2}]})",
                      error));
    CHECK(error ==
          "'doc.json' has two rows with the identity registration 'fast', name 'impl', "
          "labels {n=1}: rows must differ in registration, name or labels to be compared");
    // The same rows under different registrations are fine; without registrations (an older
    // document) the name and labels alone must differ.
    error.clear();
    CHECK(parse(R"({"schema": 2, "rows": [
        {"name": "impl", "registration": "fast", "labels": {}, "medianNs": 1},
        {"name": "impl", "registration": "slow", "labels": {}, "medianNs": 2}]})",
                error));
    const auto old = parse(R"({"schema": 2, "rows": [
        {"name": "impl", "labels": {}, "medianNs": 1}, {"name": "impl", "labels": {}, "medianNs": 2}]})",
                           error);
    CHECK_FALSE(old);
    CHECK(error.find("name 'impl', labels {}") != std::string::npos);
}

TEST_CASE("document: bad input is one clear error, deep nesting included") {
    std::string error;
    CHECK_FALSE(parse("{not json", error));
    CHECK(error.find("'doc.json' is not JSON") == 0);
    CHECK_FALSE(parse(R"({"schema": 1, "rows": []})", error));
    CHECK(error == "'doc.json' is not a glint --bench-json document of schema 2");
    CHECK_FALSE(parse(R"({"schema": 2})", error));
    CHECK(error == "'doc.json' has no rows array");
    CHECK_FALSE(parse(R"({"schema": 2, "rows": [{"name": "a"}, {"labels": {}}]})", error));
    CHECK(error == "'doc.json': row 2 has no \"name\"");
    CHECK_FALSE(parse(R"({"schema": 2, "rows": [{"name": "a", "medianNs": "fast"}]})", error));
    CHECK(error == "'doc.json': row 1 \"medianNs\" is not a number");
    // 50,000 levels of nesting: refused at the depth limit, never a stack overflow.
    const std::string deep = std::string(50000, '[') + std::string(50000, ']');
    CHECK_FALSE(parse(deep, error));
    CHECK(error == "'doc.json' nests deeper than 64 levels: not a glint --bench-json document");
    const std::string deep_in_row = R"({"schema": 2, "rows": [{"name": "a", "labels": )" +
                                    std::string(100, '[') + std::string(100, ']') + "}]}";
    CHECK_FALSE(parse(deep_in_row, error));
    CHECK(error.find("nests deeper than 64") != std::string::npos);
    CHECK_FALSE(read_document("/nonexistent/glint.json", error));
    CHECK(error.rfind("cannot read '/nonexistent/glint.json'", 0) == 0);
    CHECK(error.find("(write one with --bench-json=FILE first)") != std::string::npos);
}

TEST_CASE("document: this run's rows, with their repetitions and exact counts") {
    Row row;
    row.registration = "r";
    row.name = "r";
    TimingSummary t;
    t.median_ns = 5;
    t.sample_ns = {4, 5, 6};
    t.repetition_median_ns = {5, 6, 4};
    row.timing = t;
    glint::catalog::MetricCell instr;
    instr.name = "instr";
    instr.value = 12;
    row.cells.push_back(instr);
    const DocumentRow d = document_row(row);
    CHECK(d.repetition_medians_ns == std::vector<double>{5, 6, 4});
    CHECK(d.instructions() == 12.0);
    CHECK(identity_text(d) == "r");
    row.cells[0].estimated = true;
    CHECK_FALSE(document_row(row).instructions());
}

TEST_CASE("document: several runs of one build are one side, their repetitions pooled") {
    std::string error;
    auto run = [&](const std::string& path, const std::string& reps, const std::string& extra) {
        auto d = parse_document(
            R"({"schema": 2, "rows": [{"name": "a", "registration": "a", "labels": {},
            "medianNs": 1, "samplesNs": [1, 2], "repetitionMediansNs": )" +
                reps + "}" + extra + "]}",
            path, error);
        REQUIRE_MESSAGE(d, error);
        return *d;
    };
    const RunDocument merged =
        merge_runs({run("a1.json", "[10, 11]", ""),
                    run("a2.json", "[30, 31, 32]",
                        R"(, {"name": "b", "registration": "b", "labels": {}, "medianNs": 5})")});
    CHECK(merged.path == "a1.json,a2.json");
    REQUIRE(merged.rows.size() == 2);
    CHECK(merged.rows[0].repetition_medians_ns == std::vector<double>{10, 11, 30, 31, 32});
    CHECK(merged.rows[0].median_ns == 30);
    CHECK(merged.rows[0].samples_ns == std::vector<double>{1, 2, 1, 2});
    CHECK(merged.rows[1].name == "b");
    // Each run's own median (its document's medianNs), for the verdict's agreement of runs.
    const auto run_medians = [](const DocumentRow& row) {
        std::vector<double> out;
        for (const RunEvidence& each : row.runs) out.push_back(each.median_ns);
        return out;
    };
    CHECK(run_medians(merged.rows[0]) == std::vector<double>{1, 1});
    CHECK(run_medians(merged.rows[1]) == std::vector<double>{5});
    CHECK(side_files("a1.json,a2.json,,a3.json") ==
          std::vector<std::string>{"a1.json", "a2.json", "a3.json"});
    CHECK(side_files("plain.json") == std::vector<std::string>{"plain.json"});
    CHECK_FALSE(read_side("/nonexistent/a1.json,/nonexistent/a2.json", error));
    CHECK(error.rfind("cannot read '/nonexistent/a1.json'", 0) == 0);  // the first file at fault
}
