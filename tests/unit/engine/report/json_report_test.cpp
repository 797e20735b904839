// The --bench-json document (schema 2). How it reaches the disk:
// tests/unit/os/linux/files_linux_test.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "engine/report/json_report.hpp"
#include "rows.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;
using glint::catalog::Format;
using glint::catalog::make_cell;

namespace {

std::vector<glint::catalog::MetricDescriptor> columns() {
    return {metric("ipc", "IPC", Format::ratio),
            metric("llc-miss", "LLC miss", Format::percent, /*available=*/false)};
}

std::vector<Row> document_rows() {
    auto cols = columns();
    TimingSummary timing = batched(3, 1024, 2.0, 0.25, 1.23456789, 2.5);
    timing.sample_ns = {1.23456789, 2.0, 2.5};
    Row measured = timed_row("asdf", timing, {make_cell(cols[0], 1.83, true)});
    measured.labels = {{"operation", "parse"}, {"dataset", "canada"}};
    measured.registration = "parsers";
    measured.timing->repetition_median_ns = {2, 2.1, 1.9};
    measured.count_iterations = 1000;
    measured.timing->sample_cpu_ns = {1.0, 2.0, 2.5};
    measured.timing->cpu_ns = 5.5 * 1024;
    measured.timing->wall_ns = 5.5 * 1024 * 2;
    measured.stability = CaseStability{{0, 1}, 3, std::nullopt, {"cpu-time", "migrated"}};

    Row plain = timed_row("plain", per_call(2, 1500.0, 0.0, 1500.0, 1500.0),
                          {make_cell(cols[0], std::nan(""))});
    plain.timing->sample_ns = {1500.0, 1500.0};
    plain.timing->resolution_ns = 20.5;
    plain.stability = CaseStability{{1}, 0, 2, {}};
    plain.registration = "plain";

    Row failed = error_row("broken", "mismatch");
    failed.labels = {{"z", "1"}, {"a", "2"}};
    failed.registration = "broken";
    return {measured, plain, failed};
}

Json meta() {
    Json m = Json::object();
    m["host"] = "test-host";
    return m;
}

}  // namespace

TEST_CASE("report: the JSON document, exactly") {
    Json doc = build_document(meta(), columns(), document_rows());
    CHECK(doc.dump(2) == R"({
  "schema": 2,
  "meta": {
    "host": "test-host"
  },
  "columns": [
    {
      "name": "ipc",
      "header": "IPC",
      "format": "ratio",
      "class": "diagnostic",
      "source": "perf",
      "available": true,
      "default": true
    },
    {
      "name": "llc-miss",
      "header": "LLC miss",
      "format": "percent",
      "class": "diagnostic",
      "source": "perf",
      "available": false,
      "default": false,
      "reason": "not supported by this PMU"
    }
  ],
  "rows": [
    {
      "name": "asdf",
      "registration": "parsers",
      "labels": {
        "dataset": "canada",
        "operation": "parse"
      },
      "displayName": "parsers/asdf [dataset=canada,operation=parse]",
      "samples": 3,
      "iterationsPerSample": 1024,
      "perCall": false,
      "medianNs": 2,
      "madNs": 0.25,
      "estimator": "median",
      "spreadNs": 0.25,
      "cleanSamples": null,
      "disturbedSamples": null,
      "slowCoreSamples": null,
      "coreStepNs": null,
      "split": false,
      "retaken": false,
      "minNs": 1.23457,
      "maxNs": 2.5,
      "meanNs": 1.91152,
      "stddevNs": 0.637339,
      "cv": 0.333419,
      "samplesNs": [1.23457, 2, 2.5],
      "repetitionMediansNs": [2, 2.1, 1.9],
      "cpuWallRatio": 0.5,
      "samplesCpuNs": [1, 2, 2.5],
      "cpu": [0, 1],
      "migrations": 3,
      "preemptions": null,
      "unstable": ["cpu-time", "migrated"],
      "metrics": {
        "ipc": 1.83,
        "llc-miss": null
      },
      "estimatedMetrics": ["ipc"],
      "countIterations": 1000
    },
    {
      "name": "plain",
      "registration": "plain",
      "labels": {},
      "displayName": "plain",
      "samples": 2,
      "iterationsPerSample": 1,
      "perCall": true,
      "medianNs": 1500,
      "madNs": 0,
      "estimator": "median",
      "spreadNs": 0,
      "cleanSamples": null,
      "disturbedSamples": null,
      "slowCoreSamples": null,
      "coreStepNs": null,
      "split": false,
      "retaken": false,
      "minNs": 1500,
      "maxNs": 1500,
      "resolutionNs": 20.5,
      "medianResolved": true,
      "meanNs": 1500,
      "stddevNs": 0,
      "cv": 0,
      "samplesNs": [1500, 1500],
      "repetitionMediansNs": [1500],
      "cpuWallRatio": null,
      "cpu": 1,
      "migrations": 0,
      "preemptions": 2,
      "unstable": [],
      "metrics": {
        "ipc": null,
        "llc-miss": null
      }
    },
    {
      "name": "broken",
      "registration": "broken",
      "labels": {
        "a": "2",
        "z": "1"
      },
      "displayName": "broken [a=2,z=1]",
      "samples": null,
      "iterationsPerSample": null,
      "perCall": null,
      "medianNs": null,
      "madNs": null,
      "estimator": null,
      "spreadNs": null,
      "cleanSamples": null,
      "disturbedSamples": null,
      "slowCoreSamples": null,
      "coreStepNs": null,
      "minNs": null,
      "maxNs": null,
      "meanNs": null,
      "stddevNs": null,
      "cv": null,
      "samplesNs": null,
      "repetitionMediansNs": null,
      "metrics": {
        "ipc": null,
        "llc-miss": null
      },
      "error": "mismatch"
    }
  ]
})");
}

TEST_CASE("report: the JSON document parses back with its contract intact") {
    Json doc = Json::parse(build_document(meta(), columns(), document_rows()).dump(2));
    CHECK(doc.at("schema").as_number() == 2);
    const auto& rows = doc.at("rows").as_array();
    REQUIRE(rows.size() == 3);

    // Measurement order, labels sorted by key.
    CHECK(rows[0].at("name").as_string() == "asdf");
    CHECK(rows[2].at("name").as_string() == "broken");
    CHECK(rows[0].at("labels").as_object().front().first == "dataset");

    // estimatedMetrics and countIterations only where they apply; error only on error rows.
    CHECK(rows[0].at("estimatedMetrics").as_array() == Json::Array{Json("ipc")});
    CHECK_FALSE(rows[1].contains("estimatedMetrics"));
    CHECK_FALSE(rows[1].contains("countIterations"));
    CHECK_FALSE(rows[0].contains("error"));

    // An error row: every timing field present and null.
    for (const char* key : {"samples", "iterationsPerSample", "perCall", "medianNs", "madNs",
                            "minNs", "maxNs", "samplesNs"}) {
        REQUIRE(rows[2].contains(key));
        CHECK(rows[2].at(key).is_null());
    }
    CHECK(rows[2].at("error").as_string() == "mismatch");

    // Not measured is null, never 0.
    CHECK(rows[1].at("metrics").at("ipc").is_null());
    CHECK(rows[0].at("metrics").at("llc-miss").is_null());
    CHECK(doc.at("columns").as_array()[0].contains("reason") == false);
}

TEST_CASE("report: an estimate that was not measured is not listed as estimated") {
    auto cols = columns();
    Row row = timed_row("x", batched(1, 1, 1, 0, 1, 1), {make_cell(cols[0], std::nan(""), true)});
    Json json = row_json(row, cols);
    CHECK_FALSE(json.contains("estimatedMetrics"));
    CHECK(json.at("metrics").at("ipc").is_null());
}

TEST_CASE("report: cells beyond the described columns still reach the metrics object") {
    auto cols = columns();
    auto extra = metric("sc:futex", "futex", Format::count);
    Row row = timed_row("x", batched(1, 1, 1, 0, 1, 1), {make_cell(extra, 7)});
    Json json = row_json(row, cols);
    CHECK(json.at("metrics").at("sc:futex").as_number() == 7);
    CHECK(json.at("metrics").size() == 3);
}
