// Row order under --sort-by: stable, NaN after numbers, error rows last.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/report/sort.hpp"
#include "rows.hpp"

using namespace glint::engine;
using namespace glint::engine::report;
using namespace glint::engine::report::testing;
using glint::catalog::Format;
using glint::catalog::make_cell;

namespace {

const auto kIpc = metric("ipc", "IPC", Format::ratio);

// a: median 3, ipc 1.0 | b: error | c: median 1, ipc NaN | d: median 2, no ipc cell |
// e: median 1 (ties c), ipc 0.5
std::vector<Row> rows() {
    return {
        timed_row("a", batched(32, 4, 3.0, 0.3, 2.0, 4.0), {make_cell(kIpc, 1.0)}),
        error_row("b", "failed"),
        timed_row("c", per_call(100, 1.0, 0.1, 0.5, 9.0), {make_cell(kIpc, std::nan(""))}),
        timed_row("d", batched(32, 1, 2.0, 0.2, 1.0, 5.0)),
        timed_row("e", batched(32, 2, 1.0, 0.4, 0.9, 1.1), {make_cell(kIpc, 0.5)}),
    };
}

std::string order(const SortSpec& sort) {
    std::string names;
    for (const auto& row : sorted_rows(rows(), sort)) names += row.name;
    return names;
}

}  // namespace

TEST_CASE("report: no sort column keeps measurement order, error rows included") {
    CHECK(order({"", false}) == "abcde");
}

TEST_CASE("report: timing columns sort stably, in both directions, error rows last") {
    CHECK(order({"median", false}) == "cedab");
    CHECK(order({"median", true}) == "adceb");
    CHECK(order({"mad", false}) == "cdaeb");
    CHECK(order({"min", false}) == "cedab");
    CHECK(order({"max", true}) == "cdaeb");
    CHECK(order({"n", false}) == "decab");  // 32, 64, per-call 100 samples, 128
}

TEST_CASE("report: names sort in both directions, error rows last") {
    CHECK(order({"name", false}) == "acdeb");
    CHECK(order({"name", true}) == "edcab");
}

TEST_CASE("report: metric columns sort rows without a value after the rest") {
    CHECK(order({"ipc", false}) == "eacdb");
    CHECK(order({"ipc", true}) == "aecdb");
}

TEST_CASE("report: an unknown column leaves measurement order with error rows last") {
    CHECK(order({"no-such-metric", false}) == "acdeb");
}
