// The table as text: golden renderings, alignment on the decimal point, error rows, titles.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/report/render.hpp"
#include "engine/report/text.hpp"
#include "rows.hpp"

using namespace glint::engine;
using namespace glint::engine::report;
using namespace glint::engine::report::testing;
using glint::catalog::Format;
using glint::catalog::make_cell;

namespace {

std::string piped(const TableHead& head, const std::vector<Row>& rows) {
    return render_table(tight_table(head, rows));
}

void check_uniform_width(const std::string& table) {
    std::size_t start = 0;
    std::size_t width = std::string::npos;
    while (start < table.size()) {
        std::size_t end = table.find('\n', start);
        std::string line = table.substr(start, end - start);
        if (width == std::string::npos) width = display_width(line);
        CHECK_MESSAGE(display_width(line) == width, line);
        start = end + 1;
    }
}

}  // namespace

TEST_CASE("report: the seed's single-row table, exactly") {
    TableHead head;
    std::vector<Row> rows = {
        timed_row("medianOf.bench", batched(32, 16777216, 11.48, 0.02, 11.41, 11.54))};
    CHECK(piped(head, rows) ==
          "╭────────────────┬─────────────┬─────────────────┬─────────┬─────────╮\n"
          "│ benchmark      │           n │     median/iter │     min │     max │\n"
          "┝━━━━━━━━━━━━━━━━┿━━━━━━━━━━━━━┿━━━━━━━━━━━━━━━━━┿━━━━━━━━━┿━━━━━━━━━┥\n"
          "│ medianOf.bench │ 32×16777216 │ 11.48ns ±0.02ns │ 11.41ns │ 11.54ns │\n"
          "╰────────────────┴─────────────┴─────────────────┴─────────┴─────────╯\n");
}

TEST_CASE("report: the seed's grouped table: title in the border, per-call n, a rate column") {
    TableHead head;
    head.title = "benchmark: canada/parse";
    head.first_column = "implementation";
    head.metrics = {metric("client:B/s", "B/s", Format::count)};
    std::vector<Row> rows = {
        timed_row("asdf", per_call(42, 1.8e6, 236.8e3, 1.5e6, 11.0e6),
                  {make_cell(head.metrics[0], 1.25e9)}),
        timed_row("mir-ion", per_call(32, 13.5e6, 451.2e3, 12.8e6, 45.3e6),
                  {make_cell(head.metrics[0], 166.96e6)}),
    };
    CHECK(piped(head, rows) ==
          "╭──╼ benchmark: canada/parse ╾──────────┬────────┬────────┬─────────╮\n"
          "│ implementation │  n │     median/iter │    min │    max │     B/s │\n"
          "┝━━━━━━━━━━━━━━━━┿━━━━┿━━━━━━━━━━━━━━━━━┿━━━━━━━━┿━━━━━━━━┿━━━━━━━━━┥\n"
          "│ asdf           │ 42 │  1.8ms ±236.8µs │  1.5ms │ 11.0ms │   1.25G │\n"
          "│ mir-ion        │ 32 │ 13.5ms ±451.2µs │ 12.8ms │ 45.3ms │ 166.96M │\n"
          "╰────────────────┴────┴─────────────────┴────────┴────────┴─────────╯\n");
}

namespace {

TableHead metrics_head() {
    TableHead head;
    head.metrics = {metric("ipc", "IPC", Format::ratio),
                    metric("instructions", "instr/iter", Format::count),
                    metric("cache-miss", "cache-miss", Format::percent)};
    return head;
}

std::vector<Row> mixed_rows(const TableHead& head) {
    const auto& m = head.metrics;
    return {
        timed_row("parse", batched(32, 1024, 391.0, 2.5, 391.0, 1500.0),
                  {make_cell(m[0], 1.83), make_cell(m[1], 4100.0, true), make_cell(m[2], 2.31)}),
        error_row("verify", "after() threw: document 3 does not match the reference output"),
        timed_row("serialize", per_call(42, 1500.0, 20.0, 1400.0, 2.0e6),
                  {make_cell(m[0], std::nan("")), make_cell(m[1], 233.0)}),
    };
}

}  // namespace

TEST_CASE("report: mixed units align on the decimal point — NaN, estimates and error rows") {
    TableHead head = metrics_head();
    std::string table = piped(head, mixed_rows(head));
    CHECK(table ==
          "╭───────────┬─────────┬──────────────────┬──────────┬───────┬──────┬────────────┬───────"
          "─────╮\n"
          "│ benchmark │       n │      median/iter │      min │   max │  IPC │ instr/iter │ "
          "cache-miss │\n"
          "┝━━━━━━━━━━━┿━━━━━━━━━┿━━━━━━━━━━━━━━━━━━┿━━━━━━━━━━┿━━━━━━━┿━━━━━━┿━━━━━━━━━━━━┿━━━━━━━"
          "━━━━━┥\n"
          "│ parse     │ 32×1024 │ 391.00ns ±2.50ns │ 391.00ns │ 1.5µs │ 1.83 │     ≈4.10k │      "
          "2.31% │\n"
          "│ verify    │ after() threw: document 3 does not match the reference output             "
          "     │\n"
          "│ serialize │      42 │   1.5µs ±20.00ns │   1.4µs  │ 2.0ms │ —    │    233.00  │      "
          "—     │\n"
          "╰───────────┴─────────┴──────────────────┴──────────┴───────┴──────┴────────────┴───────"
          "─────╯\n");
    check_uniform_width(table);
}

TEST_CASE("report: an error message longer than the table is cut with an ellipsis") {
    TableHead head;
    std::vector<Row> rows = {
        timed_row("a", batched(32, 8, 10.0, 0.5, 9.5, 11.0)),
        error_row("b", "after() threw: " + std::string(200, 'x') + "\nsecond line"),
    };
    std::string table = piped(head, rows);
    check_uniform_width(table);
    CHECK(table.find("│ b         │ after() threw: xxx") != std::string::npos);
    CHECK(table.find("xxx… │\n") != std::string::npos);
    CHECK(table.find("second line") == std::string::npos);
}

TEST_CASE("report: a table of error rows only keeps the header widths") {
    TableHead head;
    std::string table = piped(head, {error_row("broken", "setup failed")});
    CHECK(table ==
          "╭───────────┬───┬─────────────┬─────┬─────╮\n"
          "│ benchmark │ n │ median/iter │ min │ max │\n"
          "┝━━━━━━━━━━━┿━━━┿━━━━━━━━━━━━━┿━━━━━┿━━━━━┥\n"
          "│ broken    │ setup failed                │\n"
          "╰───────────┴───┴─────────────┴─────┴─────╯\n");
}

TEST_CASE("report: a title wider than the table widens the last column") {
    TableHead head;
    head.title = "benchmark: a-very-long-dataset-name/with-an-operation";
    std::string table = piped(head, {timed_row("x", batched(32, 8, 10.0, 0.5, 9.5, 11.0))});
    check_uniform_width(table);
    CHECK(table.rfind("╭──╼ benchmark: a-very-long-dataset-name/with-an-operation ╾─╮\n", 0) == 0);
    CHECK(table.find("│ x         │ 32×8 │ 10.00ns ±0.50ns │ 9.50ns │") != std::string::npos);
}

TEST_CASE("report: the title overwrites only the border joins it covers") {
    TableHead head;
    head.title = "t";
    std::string top = render_top_border(head, tight_layout(head, {}));
    CHECK(top == "╭──╼ t ╾────┬───┬─────────────┬─────┬─────╮");
}

TEST_CASE("report: pinned widths hold the worst-case values and every expected name") {
    TableHead head = metrics_head();
    Layout pinned = pinned_layout(head, {"short", "a-rather-long-case-name"});
    CHECK(pinned.name == 23);
    REQUIRE(pinned.numeric.size() == 7);
    CHECK(pinned.numeric[0].width == display_width("32×16777216"));
    CHECK(pinned.numeric[1].width == display_width("~999.99ns ±999.99ns"));  // unstable mark too
    CHECK(pinned.numeric[2].width == display_width("999.99ns"));
    CHECK(pinned.numeric[5].width == display_width("instr/iter"));  // the header is wider

    for (const auto& row : mixed_rows(head)) CHECK(fits(pinned, format_row(row, head)));
    FormattedRow slow = format_row(timed_row("x", batched(32, 1, 20000e9, 1, 1, 1)), head);
    CHECK_FALSE(fits(pinned, slow));  // "20000.0s": five columns before the point, the pin has 4
    Layout wider = widened(pinned, slow, head);
    CHECK(fits(wider, slow));
    CHECK(wider.numeric[1].left == 5);
    FormattedRow long_name =
        format_row(timed_row(std::string(30, 'n'), batched(32, 1, 1, 1, 1, 1)), head);
    CHECK_FALSE(fits(pinned, long_name));
    CHECK(widened(pinned, long_name, head).name == 30);
}
