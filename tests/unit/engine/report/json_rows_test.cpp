// Rows read back from their JSON form (engine/report/json_rows.hpp).
#include <doctest/doctest.h>

#include <cmath>

#include "engine/report/json_report.hpp"
#include "engine/report/json_rows.hpp"
#include "rows.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;
using glint::catalog::Format;
using glint::catalog::make_cell;

TEST_CASE("json rows: a measured row survives the round trip through its JSON form") {
    const std::vector<glint::catalog::MetricDescriptor> catalog = {
        metric("ipc", "IPC", Format::ratio), metric("B/s", "B/s", Format::count)};
    TimingSummary timing = per_call(3, 1500, 2, 1400, 1600);
    timing.sample_ns = {1400, 1500, 1600};
    timing.resolution_ns = 20;
    Row row = timed_row("copy", timing,
                        {make_cell(catalog[0], 1.5, true), make_cell(catalog[1], std::nan(""))});
    row.labels = {{"dataset", "small"}, {"op", "copy"}};
    row.count_iterations = 1000;
    const Json json = row_json(row, {});
    const Row back = row_from_json(Json::parse(json.dump(-1)), catalog);
    CHECK(row_json(back, {}) == json);
    CHECK(back.cells.size() == 2);
    CHECK(back.cells[0].header == "IPC");
    CHECK(back.cells[0].format == Format::ratio);
    CHECK(back.cells[0].estimated);
    CHECK_FALSE(back.cells[1].measured());
    CHECK(back.timing->per_call);
    CHECK(back.timing->resolution_ns == 20);
    CHECK(back.timing->sample_ns == std::vector<double>{1400, 1500, 1600});
}

TEST_CASE("json rows: an error row and a cell the catalog lacks come back") {
    Row failed = error_row("broken", "killed by SIGSEGV");
    failed.labels = {{"kind", "bad"}};
    const Row back = row_from_json(row_json(failed, {}), {});
    CHECK(back.is_error());
    CHECK(*back.error == "killed by SIGSEGV");
    CHECK_FALSE(back.timing.has_value());
    Row extra = timed_row("x", batched(1, 8, 1, 0, 1, 1),
                          {make_cell(metric("sc:futex", "futex", Format::count), 7)});
    const Row with_extra = row_from_json(row_json(extra, {}), {});
    REQUIRE(with_extra.cells.size() == 1);
    CHECK(with_extra.cells[0].name == "sc:futex");
    CHECK(with_extra.cells[0].header == "sc:futex");
    CHECK(with_extra.cells[0].value == 7);
    CHECK_THROWS_AS(row_from_json(Json::parse("{\"labels\": {}}"), {}), std::runtime_error);
    CHECK_THROWS_AS(row_from_json(Json::parse("[1]"), {}), std::runtime_error);
}

TEST_CASE("json rows: the fields a tier adds to a row (its profile) come back as they were") {
    TimingSummary timing = per_call(4, 10, 1, 9, 12);
    timing.resolution_ns = 5;  // per-call rows carry medianResolved
    Row row = timed_row("split", timing, {});
    row.extra_fields["profile"] =
        Json::parse(R"({"samples": 2006, "functions": [{"function": "work_three"}]})");
    const Json json = row_json(row, {});
    const Row back = row_from_json(Json::parse(json.dump(-1)), {});
    CHECK(back.extra_fields == row.extra_fields);
    CHECK(row_json(back, {}) == json);
    // Row's own members never land among the extra fields.
    CHECK_FALSE(back.extra_fields.contains("medianNs"));
    CHECK_FALSE(back.extra_fields.contains("medianResolved"));
}

TEST_CASE("json rows: the registration and each repetition's median come back as Row fields") {
    TimingSummary timing = per_call(3, 1500, 2, 1400, 1600);
    timing.sample_ns = {1400, 1500, 1600};
    timing.repetition_median_ns = {1450, 1500, 1550};
    Row row = timed_row("impl", timing, {});
    row.registration = "fast";
    const Row back = row_from_json(Json::parse(row_json(row, {}).dump(-1)), {});
    CHECK(back.registration == "fast");
    REQUIRE(back.timing);
    CHECK(back.timing->repetition_median_ns == std::vector<double>{1450, 1500, 1550});
    CHECK_FALSE(back.extra_fields.contains("registration"));
    CHECK_FALSE(back.extra_fields.contains("repetitionMediansNs"));
}

TEST_CASE(
    "json rows: the headline's estimator, counts, ± and marks come back (a row sent by "
    "--isolate)") {
    TimingSummary timing = per_call(3, 1500, 2, 1400, 1600);
    timing.estimator = "clean-median";
    timing.clean_samples = 30;
    timing.disturbed_samples = 2;
    timing.spread_ns = 12.5;
    timing.split = true;
    timing.retaken = true;
    const Row back =
        row_from_json(Json::parse(row_json(timed_row("x", timing, {}), {}).dump(-1)), {});
    REQUIRE(back.timing);
    CHECK(back.timing->estimator == "clean-median");
    CHECK(*back.timing->clean_samples == 30);
    CHECK(*back.timing->disturbed_samples == 2);
    CHECK(back.timing->spread_ns == 12.5);
    CHECK(back.timing->split);
    CHECK(back.timing->retaken);
    CHECK_FALSE(back.extra_fields.contains("spreadNs"));
    // Not measured stays not measured: null counts come back unset.
    const Row plain = row_from_json(
        Json::parse(row_json(timed_row("y", per_call(3, 1500, 2, 1400, 1600), {}), {}).dump(-1)),
        {});
    CHECK_FALSE(plain.timing->clean_samples.has_value());
}
