// A progress-only group (GroupInfo::progress_only, what --group-by opens while the bodies run):
// live, a dim status line while a case runs and nothing left on screen; piped and the text
// formats, nothing at all. The rows show later, in the groups that follow.
#include <doctest/doctest.h>

#include <functional>

#include "engine/report/reporter.hpp"
#include "engine/report/text_formats.hpp"
#include "rows.hpp"
#include "terminal_screen.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;

namespace {

GroupInfo progress_group() {
    GroupInfo g;
    g.expected_names = {"linear [size=64]", "linear [size=512]"};
    g.progress_only = true;
    return g;
}

// Runs a progress-only group of two rows, then a shown group holding one of them.
void drive(TableReporter& reporter, const std::function<void()>& while_running = {}) {
    reporter.begin_group(progress_group());
    for (const char* name : {"linear [size=64]", "linear [size=512]"}) {
        reporter.case_started(name);
        reporter.case_progress();
        if (while_running) while_running();
        reporter.case_finished(timed_row(name, batched(32, 1024, 35.0, 0.1, 34.0, 40.0)));
    }
    reporter.end_group();
    GroupInfo shown;
    shown.title = "size: 64";
    shown.expected_names = {"linear"};
    reporter.begin_group(shown);
    reporter.case_finished(timed_row("linear", batched(32, 1024, 35.0, 0.1, 34.0, 40.0)));
    reporter.end_group();
}

}  // namespace

TEST_CASE("report: a progress-only group prints no table, piped or as markdown or CSV") {
    for (const std::string format : {"box", "md", "csv"}) {
        CAPTURE(format);
        CapturedFile captured;
        auto reporter = format == "box" ? make_table_reporter(captured.file(), false, {})
                                        : make_text_format_reporter(captured.file(), format, {});
        drive(*reporter);
        const std::string out = captured.all();
        CHECK(out.find("size=64") == std::string::npos);  // the held rows' names
        CHECK(out.find("size=512") == std::string::npos);
        CHECK(out.find("linear") != std::string::npos);  // the shown group's row
    }
}

TEST_CASE("report: live, a progress-only group shows a dim status line, then leaves nothing") {
    CapturedFile captured;
    TerminalScreen screen;
    auto reporter = make_table_reporter(captured.file(), true, {});
    std::vector<std::string> seen;
    drive(*reporter, [&] {
        screen.feed(captured.take_new());
        for (const auto& line : screen.lines()) seen.push_back(line);
    });
    REQUIRE_FALSE(seen.empty());
    CHECK(seen.front().find("linear [size=64]") != std::string::npos);  // the case in flight
    CHECK(seen.front().find("measuring… case 1/2") != std::string::npos);
    screen.feed(captured.take_new());
    const auto lines = screen.lines();
    for (const auto& line : lines) CHECK(line.find("size=") == std::string::npos);
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.front().find("size: 64") != std::string::npos);  // the next group's table
}
