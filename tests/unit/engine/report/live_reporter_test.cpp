// The live table reporter, driven into memory and replayed on a small terminal emulator.
#include <doctest/doctest.h>

#include "engine/report/render.hpp"
#include "engine/report/reporter.hpp"
#include "engine/report/sort.hpp"
#include "engine/report/table_reporters.hpp"
#include "engine/report/text.hpp"
#include "rows.hpp"
#include "terminal_screen.hpp"

using namespace glint::engine;
using namespace glint::engine::report;
using namespace glint::engine::report::testing;
using glint::catalog::Format;
using glint::catalog::make_cell;

namespace {

struct Frame {
    std::vector<std::string> lines;
    std::vector<bool> dim;
};

// Drives a reporter and keeps the screen after every call.
class LiveHarness {
  public:
    explicit LiveHarness(SortSpec sort = {})
        : reporter_(make_table_reporter(captured_.file(), true, std::move(sort))) {}

    TableReporter& reporter() { return *reporter_; }

    // Replays the output written since the last snapshot, then records the screen.
    const Frame& snapshot() {
        screen_.feed(captured_.take_new());
        Frame frame;
        frame.lines = screen_.lines();
        for (std::size_t i = 0; i < frame.lines.size(); ++i) frame.dim.push_back(screen_.is_dim(i));
        frames_.push_back(std::move(frame));
        return frames_.back();
    }
    const std::vector<Frame>& frames() const { return frames_; }
    const TerminalScreen& screen() const { return screen_; }

  private:
    CapturedFile captured_;
    std::unique_ptr<TableReporter> reporter_;
    TerminalScreen screen_;
    std::vector<Frame> frames_;
};

const auto kIpc = metric("ipc", "IPC", Format::ratio);

GroupInfo group() {
    GroupInfo g;
    g.title = "benchmark: canada/parse";
    g.first_column = "implementation";
    g.expected_names = {"asdf", "mir-ion", "broken"};
    g.columns = {kIpc};
    return g;
}

std::vector<Row> rows() {
    return {
        timed_row("asdf", per_call(42, 1.8e6, 236.8e3, 1.5e6, 11.0e6), {make_cell(kIpc, 1.83)}),
        timed_row("mir-ion", batched(32, 16, 391.0, 0.5, 390.0, 1500.0),
                  {make_cell(kIpc, 0.7, true)}),
        error_row("broken", "after() threw: mismatch"),
    };
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

TableModel pinned_table(const GroupInfo& g, const std::vector<Row>& rs) {
    TableHead head{g.title, g.first_column, g.columns};
    TableModel table{head, {}, pinned_layout(head, g.expected_names)};
    for (const auto& row : rs) table.rows.push_back(format_row(row, head));
    return table;
}

}  // namespace

TEST_CASE("report: the live table's last frame is the pinned rendering, and no frame resizes") {
    LiveHarness live;
    GroupInfo g = group();
    live.reporter().begin_group(g);
    CHECK(live.snapshot().lines.empty());  // nothing shows before the first case starts
    for (const auto& row : rows()) {
        live.reporter().case_started(row.name);
        const Frame& started = live.snapshot();
        REQUIRE(started.lines.size() >= 5);
        std::string spinner = started.lines[started.lines.size() - 2];
        CHECK(started.dim[started.lines.size() - 2]);
        CHECK_FALSE(started.dim.back());
        CHECK(spinner.find("⠋ " + row.name) != std::string::npos);
        CHECK(spinner.find("measuring…") != std::string::npos);

        live.reporter().case_progress();
        const Frame& progressed = live.snapshot();
        CHECK(progressed.lines[progressed.lines.size() - 2].find("⠙ " + row.name) !=
              std::string::npos);

        live.reporter().case_finished(row);
        live.snapshot();
    }
    const Frame last_live = live.frames().back();
    live.reporter().end_group();
    const Frame& final_frame = live.snapshot();

    // The frame left in the scrollback is the last live frame, and the pinned rendering.
    CHECK(final_frame.lines == last_live.lines);
    CHECK(final_frame.lines == split_lines(render_table(pinned_table(g, rows()))));
    for (bool dim : final_frame.dim) CHECK_FALSE(dim);

    // Every line of every frame has the table's width.
    std::size_t width = display_width(final_frame.lines.front());
    for (const auto& frame : live.frames())
        for (const auto& line : frame.lines) CHECK_MESSAGE(display_width(line) == width, line);

    // Only the tail (spinner row and bottom border) is ever repainted.
    CHECK(live.screen().max_cursor_up() <= 2);
    CHECK(live.screen().unknown_escapes().empty());
    for (std::size_t i = 1; i < live.frames().size(); ++i) {
        const auto& before = live.frames()[i - 1].lines;
        const auto& after = live.frames()[i].lines;
        std::size_t kept = before.size() >= 2 ? before.size() - 2 : 0;
        REQUIRE(after.size() >= kept);
        for (std::size_t j = 0; j < kept; ++j) CHECK(after[j] == before[j]);
    }
}

TEST_CASE("report: the live spinner row sits in the table, dim, between rows and border") {
    LiveHarness live;
    GroupInfo g;
    g.expected_names = {"medianOf.bench", "sum.bench"};
    live.reporter().begin_group(g);
    live.reporter().case_started("medianOf.bench");
    live.reporter().case_finished(
        timed_row("medianOf.bench", batched(32, 16777216, 11.48, 0.02, 11.41, 11.54)));
    live.reporter().case_started("sum.bench");
    live.reporter().case_progress();
    live.reporter().case_progress();
    const Frame& frame = live.snapshot();
    REQUIRE(frame.lines.size() == 6);
    // (the first case took no time: "· <1s left" follows)
    CHECK(frame.lines[4].rfind("│ ⠹ sum.bench    │ measuring… case 2/2 ", 0) == 0);
    CHECK(display_width(frame.lines[4]) == display_width(frame.lines[3]));
    CHECK(frame.lines[3] ==
          "│ medianOf.bench │ 32×16777216 │   11.48ns ±0.02ns   │  11.41ns │  11.54ns │");
    CHECK(frame.dim[4]);
    CHECK(live.screen().all_dim(4));
    CHECK_FALSE(frame.dim[3]);
    CHECK_FALSE(frame.dim[5]);
}

TEST_CASE("report: a row wider than the pinned columns opens a new segment, history intact") {
    LiveHarness live;
    GroupInfo g;
    g.expected_names = {"a"};
    live.reporter().begin_group(g);
    Row first = timed_row("a", batched(32, 8, 10.0, 0.1, 9.0, 11.0));
    live.reporter().case_started("a");
    live.reporter().case_finished(first);
    const Frame before = live.snapshot();
    REQUIRE(before.lines.size() == 5);

    Row surprise = timed_row("an-unexpectedly-long-name", batched(32, 1, 2000e9, 1.0, 1.0, 1.0));
    live.reporter().case_started(surprise.name);  // the spinner label is cut to fit
    const Frame& spinning = live.snapshot();
    CHECK(display_width(spinning.lines[4]) == display_width(before.lines[0]));
    live.reporter().case_finished(surprise);
    live.reporter().end_group();
    const Frame& after = live.snapshot();

    // The first segment stays as it was, closed by its bottom border.
    REQUIRE(after.lines.size() == 10);
    for (std::size_t i = 0; i < 5; ++i) CHECK(after.lines[i] == before.lines[i]);

    // The second segment is wider and holds the row.
    GroupInfo pinned = g;
    TableHead head{g.title, g.first_column, g.columns};
    Layout wider = widened(pinned_layout(head, g.expected_names), format_row(surprise, head), head);
    TableModel second{head, {format_row(surprise, head)}, wider};
    std::vector<std::string> expected = split_lines(render_table(second));
    CHECK(std::vector<std::string>(after.lines.begin() + 5, after.lines.end()) == expected);
    CHECK(display_width(after.lines[5]) > display_width(after.lines[0]));
    CHECK(after.lines[8].find("2000.0s") != std::string::npos);
}

TEST_CASE("report: with a sort order, live mode shows a status line, then the sorted table") {
    SortSpec sort{"median", false};
    LiveHarness live(sort);
    GroupInfo g = group();
    live.reporter().begin_group(g);
    std::size_t done = 0;
    for (const auto& row : rows()) {
        live.reporter().case_started(row.name);
        const Frame& frame = live.snapshot();
        REQUIRE(frame.lines.size() == 1);
        CHECK(frame.dim[0]);
        CHECK(frame.lines[0].find(row.name) != std::string::npos);
        CHECK(frame.lines[0].find("measuring… case " + std::to_string(done + 1) + "/3") !=
              std::string::npos);
        live.reporter().case_progress();
        live.snapshot();
        live.reporter().case_finished(row);
        ++done;
    }
    live.reporter().end_group();
    const Frame& final_frame = live.snapshot();
    TableHead head{g.title, g.first_column, g.columns};
    CHECK(final_frame.lines ==
          split_lines(render_table(tight_table(head, sorted_rows(rows(), sort)))));
    for (bool dim : final_frame.dim) CHECK_FALSE(dim);
    CHECK(live.screen().unknown_escapes().empty());
}

TEST_CASE("report: progress with no case in flight paints nothing") {
    CapturedFile captured;
    auto reporter = make_table_reporter(captured.file(), true, {});
    reporter->begin_group(group());
    reporter->case_progress();
    CHECK(captured.all().empty());
}

TEST_CASE("report: a table wider than the terminal is deferred to end_group, never wrapped") {
    CapturedFile captured;
    auto reporter = make_live_table(captured.file(), {}, std::size_t{40});
    TerminalScreen screen;
    GroupInfo g = group();
    reporter->begin_group(g);
    for (const auto& row : rows()) {
        reporter->case_started(row.name);
        reporter->case_progress();
        screen.feed(captured.take_new());
        auto lines = screen.lines();
        REQUIRE(lines.size() == 1);
        CHECK(screen.all_dim(0));
        CHECK(display_width(lines[0]) <= 39);
        reporter->case_finished(row);
    }
    reporter->end_group();
    screen.feed(captured.take_new());
    TableHead head{g.title, g.first_column, g.columns};
    CHECK(screen.lines() == split_lines(render_table(tight_table(head, rows()))));
}

TEST_CASE("report: rows that outgrow the terminal mid-group wait for end_group") {
    GroupInfo g;
    g.expected_names = {"a", "b"};
    TableHead head{g.title, g.first_column, g.columns};
    std::size_t pinned_width = table_width(pinned_layout(head, g.expected_names));

    CapturedFile captured;
    auto reporter = make_live_table(captured.file(), {}, pinned_width + 2);
    TerminalScreen screen;
    reporter->begin_group(g);
    Row a = timed_row("a", batched(32, 8, 10.0, 0.1, 9.0, 11.0));
    Row wide =
        timed_row("a-name-far-too-wide-for-the-terminal", batched(32, 8, 10.0, 0.1, 9.0, 11.0));
    Row b = timed_row("b", batched(32, 8, 20.0, 0.1, 19.0, 21.0));
    for (const Row* row : {&a, &wide, &b}) {
        reporter->case_started(row->name);
        reporter->case_finished(*row);
        screen.feed(captured.take_new());
        for (const auto& line : screen.lines()) CHECK(display_width(line) <= pinned_width + 2);
    }
    reporter->end_group();
    screen.feed(captured.take_new());

    TableModel first{head, {format_row(a, head)}, pinned_layout(head, g.expected_names)};
    std::vector<std::string> expected = split_lines(render_table(first));
    expected.push_back("");
    for (const auto& line : split_lines(render_table(tight_table(head, {wide, b}))))
        expected.push_back(line);
    CHECK(screen.lines() == expected);
}

TEST_CASE("report: live, columns that grow open a new segment under the new head, history intact") {
    LiveHarness live;
    GroupInfo g;
    g.expected_names = {"plain", "hash [len=16]"};
    live.reporter().begin_group(g);
    const Row plain = timed_row("plain", batched(32, 8, 10.0, 0.1, 9.0, 11.0));
    live.reporter().case_started(plain.name);
    live.reporter().case_finished(plain);
    const Frame before = live.snapshot();
    REQUIRE(before.lines.size() == 5);

    const auto rate = metric("B/s", "B/s", Format::count);
    live.reporter().columns_grew({rate});
    const Row hash =
        timed_row("hash [len=16]", batched(32, 8, 8.0, 0.1, 7.9, 8.1), {make_cell(rate, 2e9)});
    live.reporter().case_started(hash.name);
    live.reporter().case_finished(hash);
    live.reporter().end_group();
    const Frame& after = live.snapshot();

    REQUIRE(after.lines.size() == 10);  // the first segment as it was, closed by its border
    for (std::size_t i = 0; i < 5; ++i) CHECK(after.lines[i] == before.lines[i]);
    TableHead head{g.title, g.first_column, {rate}};
    TableModel second{head, {format_row(hash, head)}, pinned_layout(head, g.expected_names)};
    CHECK(std::vector<std::string>(after.lines.begin() + 5, after.lines.end()) ==
          split_lines(render_table(second)));
    CHECK(after.lines[8].find("2.00G") != std::string::npos);
    CHECK(live.screen().max_cursor_up() <= 2);
}

TEST_CASE("report: live, columns that grow past the terminal's width wait for end_group") {
    GroupInfo g;
    g.expected_names = {"a", "b"};
    TableHead head{g.title, g.first_column, g.columns};
    const std::size_t pinned_width = table_width(pinned_layout(head, g.expected_names));
    CapturedFile captured;
    auto reporter = make_live_table(captured.file(), {}, pinned_width + 2);
    TerminalScreen screen;
    reporter->begin_group(g);
    const Row a = timed_row("a", batched(32, 8, 10.0, 0.1, 9.0, 11.0));
    reporter->case_started(a.name);
    reporter->case_finished(a);
    const auto rate = metric("B/s", "B/s", Format::count);
    reporter->columns_grew({rate});
    const Row b = timed_row("b", batched(32, 8, 20.0, 0.1, 19.0, 21.0), {make_cell(rate, 5e8)});
    reporter->case_started(b.name);
    reporter->case_finished(b);
    reporter->end_group();
    screen.feed(captured.take_new());
    for (const auto& line : screen.lines()) CHECK(display_width(line) <= pinned_width + 2);

    std::vector<std::string> expected = split_lines(render_table(
        TableModel{head, {format_row(a, head)}, pinned_layout(head, g.expected_names)}));
    expected.push_back("");
    TableHead grown{g.title, g.first_column, {rate}};
    for (const auto& line : split_lines(render_table(tight_table(grown, {b}))))
        expected.push_back(line);
    CHECK(screen.lines() == expected);
}

TEST_CASE("report: the spinner row counts cases and, after the first, estimates the time left") {
    CapturedFile captured;
    double now = 100.0;
    auto reporter =
        make_live_table(captured.file(), {}, std::nullopt, captured.file(), [&] { return now; });
    TerminalScreen screen;
    GroupInfo g;
    g.expected_names = {"a", "b", "c", "d"};
    reporter->begin_group(g);
    auto spinner = [&] {
        screen.feed(captured.take_new());
        const auto lines = screen.lines();
        return lines[lines.size() - 2];
    };
    reporter->case_started("a");
    CHECK(spinner().find("measuring… case 1/4 ") != std::string::npos);  // no estimate yet
    CHECK(spinner().find("left") == std::string::npos);
    now += 2.0;  // a took 2 s
    reporter->case_finished(timed_row("a", batched(32, 8, 10.0, 0.1, 9.0, 11.0)));
    reporter->case_started("b");
    // b, then c and d: 2 s each at a's pace.
    CHECK(spinner().find("measuring… case 2/4 · ~6s left") != std::string::npos);
    now += 1.0;
    reporter->case_progress();  // repainted between measurements: b has 1 s of its 2 s left
    CHECK(spinner().find("case 2/4 · ~5s left") != std::string::npos);
    now += 4.5;  // b overruns: only c and d remain in the estimate
    reporter->case_progress();
    CHECK(spinner().find("case 2/4 · ~4s left") != std::string::npos);
    reporter->case_finished(timed_row("b", batched(32, 8, 10.0, 0.1, 9.0, 11.0)));
    reporter->case_started("c");  // mean (2 + 5.5) / 2 = 3.75 s: c and d
    CHECK(spinner().find("case 3/4 · ~8s left") != std::string::npos);
    now += 3.7;
    reporter->case_finished(timed_row("c", batched(32, 8, 10.0, 0.1, 9.0, 11.0)));
    reporter->case_started("d");
    now += 3.5;
    reporter->case_progress();
    CHECK(spinner().find("case 4/4 · <1s left") != std::string::npos);
    reporter->case_finished(timed_row("d", batched(32, 8, 10.0, 0.1, 9.0, 11.0)));
    reporter->case_started("e");  // more cases than expected: N grows with k
    CHECK(spinner().find("case 5/5") != std::string::npos);
}

TEST_CASE("report: a case's diagnostic waits for the final frame, which keeps no spinner row") {
    CapturedFile captured;  // stdout and stderr on one terminal, as a person sees them
    auto reporter = make_live_table(captured.file(), {}, std::nullopt, captured.file());
    TerminalScreen screen;
    GroupInfo g = group();
    reporter->begin_group(g);
    for (const auto& row : rows()) {
        reporter->case_started(row.name);
        reporter->case_progress();
        reporter->case_finished(row);
        if (row.is_error()) reporter->diagnostic("glint: " + row.name + ": " + *row.error);
        screen.feed(captured.take_new());
        for (const auto& line : screen.lines()) CHECK(line.find("glint: ") == std::string::npos);
    }
    reporter->end_group();
    screen.feed(captured.take_new());
    std::vector<std::string> expected = split_lines(render_table(pinned_table(g, rows())));
    expected.push_back("glint: broken: after() threw: mismatch");
    CHECK(screen.lines() == expected);
    for (const auto& line : screen.lines()) CHECK(line.find("measuring") == std::string::npos);
}

TEST_CASE("report: outside a group a diagnostic prints at once, and piped output never waits") {
    CapturedFile captured;
    auto live = make_live_table(captured.file(), {}, std::nullopt, captured.file());
    live->diagnostic("glint: setup failed");
    CHECK(captured.take_new() == "glint: setup failed\n");
}

TEST_CASE(
    "report: the live table shows a hostile name, error and diagnostic as visible text, never as "
    "escapes") {
    CapturedFile captured;  // stdout and stderr together: the live table's own escapes are CSI only
    auto reporter = make_live_table(captured.file(), {}, std::nullopt, captured.file());
    const std::string name = "clear\x1b[2J osc\x1b]8;;http://e.example/\x07two\nlines";
    GroupInfo g = group();
    g.expected_names = {name};
    reporter->begin_group(g);
    reporter->case_started(name);
    reporter->case_progress();
    reporter->case_finished(error_row(name, "bad\x07\nline\x1b[2J"));
    reporter->diagnostic("glint: " + name + ": bad\x07\nline\x1b[2J");
    reporter->end_group();
    const std::string all = captured.all();
    CHECK(all.find("\x1b[2J") == std::string::npos);
    CHECK(all.find("\x1b]8") == std::string::npos);
    CHECK(all.find('\a') == std::string::npos);
    CHECK(all.find("two\nlines") == std::string::npos);
    CHECK(all.find("glint: clear\xE2\x90\x9B[2J "
                   "osc\xE2\x90\x9B]8;;http://e.example/\xE2\x90\x87two\xE2\x90\x8Alines") !=
          std::string::npos);
}
