// The unstable column: each unstable row's reason codes beside its median, in the box table
// (piped and live), markdown and CSV (engine/report/layout.hpp, engine/model/unstable_codes.hpp).
#include <doctest/doctest.h>

#include "engine/report/render.hpp"
#include "engine/report/table_reporters.hpp"
#include "engine/report/text.hpp"
#include "engine/report/text_formats.hpp"
#include "rows.hpp"
#include "terminal_screen.hpp"

using namespace glint::engine;
using namespace glint::engine::report;
using namespace glint::engine::report::testing;

namespace {

TimingSummary ns(double median) { return batched(32, 1024, median, 0.5, median - 1, median + 2); }

std::vector<Row> mixed() {
    return {timed_row("steady", ns(10)), unstable_row("moved", ns(20), {"cpu-time", "migrated"}),
            unstable_row("stolen", ns(30), {"steal"}), error_row("broken", "boom")};
}

std::string format_run(const std::string& format, const std::vector<Row>& rows) {
    CapturedFile captured;
    auto reporter = make_text_format_reporter(captured.file(), format, SortSpec{});
    reporter->begin_group(GroupInfo{});
    for (const Row& row : rows) reporter->case_finished(row);
    reporter->end_group();
    return captured.all();
}

}  // namespace

TEST_CASE("unstable column: after median/iter, one row's two codes, blank for a stable row") {
    CHECK(render_table(tight_table(TableHead{}, mixed())) ==
          "╭───────────┬─────────┬──────────────────┬──────────┬─────────┬─────────╮\n"
          "│ benchmark │       n │      median/iter │ unstable │     min │     max │\n"
          "┝━━━━━━━━━━━┿━━━━━━━━━┿━━━━━━━━━━━━━━━━━━┿━━━━━━━━━━┿━━━━━━━━━┿━━━━━━━━━┥\n"
          "│ steady    │ 32×1024 │  10.00ns ±0.50ns │          │  9.00ns │ 12.00ns │\n"
          "│ moved     │ 32×1024 │ ~20.00ns ±0.50ns │ cpu,mig  │ 19.00ns │ 22.00ns │\n"
          "│ stolen    │ 32×1024 │ ~30.00ns ±0.50ns │ steal    │ 29.00ns │ 32.00ns │\n"
          "│ broken    │ boom                                                      │\n"
          "╰───────────┴─────────┴──────────────────┴──────────┴─────────┴─────────╯\n");
}

TEST_CASE("unstable column: none in a table whose rows are all stable") {
    const std::string table = render_table(tight_table(TableHead{}, {timed_row("steady", ns(10))}));
    CHECK(table.find("unstable") == std::string::npos);
    CHECK(table.find('~') == std::string::npos);
}

TEST_CASE("unstable column: a row with many reasons shows every code, the column as wide as they") {
    const Row many =
        unstable_row("many", ns(10), {"cpu-time", "disturbed", "split", "spread", "steal"});
    const TableModel table = tight_table(TableHead{}, {many});
    CHECK(table.rows[0].reasons == "cpu,dist,split,spread,steal");
    CHECK(table.layout.unstable == display_width("cpu,dist,split,spread,steal"));
}

TEST_CASE("unstable column: markdown has it after median/iter, CSV every code in the last column") {
    CHECK(format_run("md", mixed()) ==
          "| benchmark | n | median/iter | unstable | min | max |\n"
          "|:---|---:|---:|:---|---:|---:|\n"
          "| steady | 32×1024 | 10.00ns ±0.50ns |  | 9.00ns | 12.00ns |\n"
          "| moved | 32×1024 | \\~20.00ns ±0.50ns | cpu,mig | 19.00ns | 22.00ns |\n"
          "| stolen | 32×1024 | \\~30.00ns ±0.50ns | steal | 29.00ns | 32.00ns |\n"
          "| broken | error: boom | | | | |\n");
    CHECK(format_run("md", {timed_row("steady", ns(10))}).find("unstable") == std::string::npos);
    const Row many =
        unstable_row("many", ns(10), {"cpu-time", "disturbed", "split", "spread", "steal"});
    CHECK(format_run("csv", {timed_row("steady", ns(10)), many, error_row("broken", "boom")}) ==
          "benchmark,registration,samples,iterations,median_ns,mad_ns,min_ns,max_ns,mean_ns,"
          "stddev_ns,cv,error,unstable\n"
          "steady,,32,1024,10,0.5,9,12,,,,,\n"
          "many,,32,1024,10,0.5,9,12,,,,,cpu dist split spread steal\n"
          "broken,,,,,,,,,,,boom,\n");
}

TEST_CASE("unstable column: live, the first row unstable repaints the empty head with the column") {
    CapturedFile captured;
    auto live = make_live_table(captured.file(), SortSpec{}, std::size_t{200});
    GroupInfo g;
    g.expected_names = {"moved", "steady"};
    live->begin_group(g);
    for (const Row& row :
         {unstable_row("moved", ns(20), {"cpu-time", "migrated"}), timed_row("steady", ns(10))}) {
        live->case_started(row.name);
        live->case_finished(row);
    }
    live->end_group();
    TerminalScreen screen;
    screen.feed(captured.all());
    const auto lines = screen.lines();
    REQUIRE(lines.size() == 6);  // one segment: no head left without rows
    const std::size_t reserved = display_width(kReservedCodes);  // the column's width, live
    CHECK(lines[1].find(" median/iter │ " + pad_right("unstable", reserved) + " │") !=
          std::string::npos);
    CHECK(lines[3].find("│ " + pad_right("cpu,mig", reserved) + " │") != std::string::npos);
    CHECK(lines[4].find("│ " + pad_right("", reserved) + " │") != std::string::npos);
    for (const auto& line : lines) CHECK(display_width(line) == display_width(lines[0]));
    CHECK(screen.unknown_escapes().empty());
}

TEST_CASE(
    "unstable column: live, an unstable row after stable ones opens a segment with the column") {
    CapturedFile captured;
    auto live = make_live_table(captured.file(), SortSpec{}, std::size_t{200});
    GroupInfo g;
    g.expected_names = {"steady", "stolen"};
    live->begin_group(g);
    for (const Row& row :
         {timed_row("steady", ns(10)), unstable_row("stolen", ns(30), {"steal"})}) {
        live->case_started(row.name);
        live->case_finished(row);
    }
    live->end_group();
    TerminalScreen screen;
    screen.feed(captured.all());
    const auto lines = screen.lines();
    REQUIRE(lines.size() == 10);  // two segments of five lines
    CHECK(lines[1].find("unstable") == std::string::npos);
    CHECK(lines[3].find("steady") != std::string::npos);
    CHECK(lines[6].find("│ unstable ") != std::string::npos);
    CHECK(lines[8].find("│ steal    ") != std::string::npos);
}
