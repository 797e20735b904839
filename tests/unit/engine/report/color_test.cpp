// Colour in the box table: when (--color, NO_COLOR, TERM), what is painted, and that escape
// codes never change a width (engine/report/color.hpp).
#include <doctest/doctest.h>

#include "engine/report/color.hpp"
#include "engine/report/render.hpp"
#include "engine/report/table_reporters.hpp"
#include "engine/report/text.hpp"
#include "rows.hpp"
#include "terminal_screen.hpp"

using namespace glint::engine;
using namespace glint::engine::report;
using namespace glint::engine::report::testing;
using glint::catalog::Format;
using glint::catalog::make_cell;
using glint::catalog::Tone;

namespace {

bool has(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}

TableHead vs_base_head() {
    TableHead head;
    head.metrics = {metric("base-change", "vs base", Format::change)};
    return head;
}

glint::catalog::MetricCell change(double percent, Tone tone) {
    auto cell = make_cell(vs_base_head().metrics[0], percent);
    cell.tone = tone;
    return cell;
}

std::vector<Row> rows() {
    TimingSummary t = batched(32, 1024, 10.0, 0.5, 9.0, 12.0);
    return {timed_row("faster", t, {change(-20.0, Tone::better)}),
            timed_row("slower", t, {change(+25.0, Tone::worse)}),
            unstable_row("noisy", t, {"cpu-time", "migrated"}, {change(+1.0, Tone::neutral)}),
            error_row("broken", "boom")};
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = text.find('\n', start);
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

}  // namespace

TEST_CASE(
    "color: --color=always and never win, auto paints a terminal unless NO_COLOR or TERM=dumb") {
    CHECK(paints("always", false, "1", "dumb"));
    CHECK_FALSE(paints("never", true, nullptr, "xterm"));
    CHECK(paints("auto", true, nullptr, "xterm-256color"));
    CHECK(paints("auto", true, "", nullptr));  // NO_COLOR set but empty: no-color.org ignores it
    CHECK_FALSE(paints("auto", true, "1", "xterm"));
    CHECK_FALSE(paints("auto", true, "0", "xterm"));  // any non-empty value
    CHECK_FALSE(paints("auto", true, nullptr, "dumb"));
    CHECK_FALSE(paints("auto", false, nullptr, "xterm"));  // piped, or a file
}

TEST_CASE("color: a painted cell keeps its padding plain, and without_escapes undoes painting") {
    CHECK(painted("  ~x ", kBold) == "  \x1b[1m~x\x1b[0m ");
    CHECK(painted("   ", kBold) == "   ");
    CHECK(without_escapes(painted("  ~x ", kUnstableStyle)) == "  ~x ");
    CHECK(without_escapes("a\x1b[2;33mb\x1b[0mc") == "abc");
}

TEST_CASE("color: headers bold, ~ and codes dim yellow, a confident change green or red") {
    const TableModel table = tight_table(vs_base_head(), rows());
    const std::string plain = render_table(table);
    const std::string colored = render_table(table, true);
    CHECK_FALSE(has(plain, "\x1b["));
    CHECK(has(colored, std::string(kBold) + "benchmark" + std::string(kResetStyle)));
    CHECK(has(colored, std::string(kBold) + "vs base" + std::string(kResetStyle)));
    CHECK(has(colored, std::string(kUnstableStyle) + "~" + std::string(kResetStyle) + "10.00ns"));
    CHECK(has(colored, std::string(kUnstableStyle) + "cpu,mig" + std::string(kResetStyle)));
    CHECK(has(colored, std::string(kBetterStyle) + "-20.00%" + std::string(kResetStyle)));
    CHECK(has(colored, std::string(kWorseStyle) + "+25.00%" + std::string(kResetStyle)));
    CHECK_FALSE(has(colored, std::string(kWorseStyle) + "+1.00%"));  // no verdict: plain
    // The same table once the codes are gone, so every visible width is the plain one's.
    CHECK(without_escapes(colored) == plain);
    const auto plain_lines = lines_of(plain), colored_lines = lines_of(colored);
    REQUIRE(plain_lines.size() == colored_lines.size());
    for (std::size_t i = 0; i < plain_lines.size(); ++i)
        CHECK(display_width(colored_lines[i]) == display_width(plain_lines[i]));
}

TEST_CASE("color: the live and piped tables paint only when asked, to the same visible text") {
    std::vector<std::string> screens[2];
    for (const bool color : {false, true}) {
        CapturedFile live_out, piped_out;
        auto live =
            make_live_table(live_out.file(), SortSpec{}, std::size_t{200}, nullptr, {}, color);
        auto piped = make_piped_table(piped_out.file(), SortSpec{}, color);
        GroupInfo g;
        g.columns = vs_base_head().metrics;
        for (auto* reporter : {live.get(), piped.get()}) {
            reporter->begin_group(g);
            for (const Row& row : rows()) {
                reporter->case_started(row.name);
                reporter->case_finished(row);
            }
            reporter->end_group();
        }
        CHECK(has(piped_out.all(), "\x1b[") == color);
        CHECK(without_escapes(piped_out.all()) ==
              render_table(tight_table(vs_base_head(), rows())));
        TerminalScreen screen;
        screen.feed(live_out.all());
        CHECK(screen.unknown_escapes().empty() == !color);  // the spinner's dim is known
        for (const auto& code : screen.unknown_escapes()) CHECK(code.back() == 'm');  // colour only
        screens[color] = screen.lines();
    }
    CHECK(screens[true] == screens[false]);
}
