// The piped table reporter: each table printed once at end_group, tight, sorted, no escapes.
#include <doctest/doctest.h>

#include "engine/report/render.hpp"
#include "engine/report/reporter.hpp"
#include "rows.hpp"
#include "terminal_screen.hpp"

using namespace glint::engine;
using namespace glint::engine::report;
using namespace glint::engine::report::testing;
using glint::catalog::make_cell;

namespace {

GroupInfo group(std::string title) {
    GroupInfo g;
    g.title = std::move(title);
    g.first_column = "implementation";
    g.expected_names = {"fast", "slow", "broken"};
    return g;
}

std::vector<Row> group_rows() {
    return {
        timed_row("slow", batched(32, 16, 1500.0, 10.0, 1400.0, 1600.0)),
        error_row("broken", "mismatch"),
        timed_row("fast", batched(32, 4096, 391.0, 1.0, 390.0, 400.0)),
    };
}

std::string run(bool live, SortSpec sort, CapturedFile& captured) {
    auto reporter = make_table_reporter(captured.file(), live, std::move(sort));
    reporter->header({"glint 0.1.0 — test header", "host: test"});
    for (const char* title : {"benchmark: one", "benchmark: two"}) {
        reporter->begin_group(group(title));
        for (const auto& row : group_rows()) {
            reporter->case_started(row.name);
            reporter->case_progress();
            reporter->case_finished(row);
        }
        reporter->end_group();
    }
    return captured.all();
}

}  // namespace

TEST_CASE("report: piped output prints the header, then each table once, with no escapes") {
    CapturedFile captured;
    std::string out = run(false, {}, captured);
    CHECK(out.find('\x1b') == std::string::npos);
    TableHead one{"benchmark: one", "implementation", {}};
    TableHead two{"benchmark: two", "implementation", {}};
    std::string expected = "glint 0.1.0 — test header\nhost: test\n\n" +
                           render_table(tight_table(one, group_rows())) + "\n" +
                           render_table(tight_table(two, group_rows()));
    CHECK(out == expected);
}

TEST_CASE("report: piped output sorts each table, error rows last") {
    CapturedFile captured;
    std::string out = run(false, {"median", true}, captured);
    std::size_t slow = out.find("│ slow");
    std::size_t fast = out.find("│ fast");
    std::size_t broken = out.find("│ broken");
    CHECK(slow < fast);
    CHECK(fast < broken);
    CHECK(out.find('\x1b') == std::string::npos);
}

TEST_CASE("report: a group without rows prints nothing") {
    CapturedFile captured;
    auto reporter = make_table_reporter(captured.file(), false, {});
    reporter->begin_group(group("empty"));
    reporter->end_group();
    CHECK(captured.all().empty());
}

TEST_CASE("report: piped output renders columns that grew mid-table, — where a row has no cell") {
    CapturedFile captured;
    auto reporter = make_table_reporter(captured.file(), false, {});
    GroupInfo g = group("");
    reporter->begin_group(g);
    const auto rate = metric("B/s", "B/s", glint::catalog::Format::count);
    const std::vector<Row> rows = {
        timed_row("fast", batched(32, 4096, 391.0, 1.0, 390.0, 400.0)),
        timed_row("slow", batched(32, 16, 1500.0, 10.0, 1400.0, 1600.0), {make_cell(rate, 4e9)}),
        timed_row("slower", batched(32, 16, 3000.0, 10.0, 2900.0, 3100.0),
                  {make_cell(rate, 2.5e8)})};
    reporter->case_finished(rows[0]);
    reporter->columns_grew({rate});
    reporter->case_finished(rows[1]);
    reporter->case_finished(rows[2]);
    reporter->end_group();
    TableHead head{"", "implementation", {rate}};
    CHECK(captured.all() == render_table(tight_table(head, rows)));
    CHECK(captured.all().find("│   —     │") != std::string::npos);
    CHECK(captured.all().find("4.00G") != std::string::npos);
    CHECK(captured.all().find("250.00M") != std::string::npos);
}
