// End to end: what glint prints about the host fits a terminal. Piped, the header's notes (the
// perf tier's among them), stderr's notes and --capabilities wrap at 100 columns; without a PMU
// the perf notes are short (the fallback, its remedy, the read path); a time-valued metric
// column (task-clock) renders in time units like the time columns beside it, never as an SI
// count ("5.11k"). Built everywhere: off Linux the notes say why nothing counts, and fit too.
#include <doctest/doctest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "engine/report/text.hpp"
#include "support/platform.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"

using glint::test::fixture_path;
using glint::test::run_process;

namespace {

// Lines of `text` that are not part of a box table (whose width is its columns'): such a line
// starts with a box-drawing character (U+2500 to U+257F: E2 94 xx or E2 95 xx in UTF-8).
int check_fits(const std::string& text, std::size_t width) {
    std::istringstream in(text);
    std::string line;
    int checked = 0;
    while (std::getline(in, line)) {
        if (line.starts_with("\xE2\x94") || line.starts_with("\xE2\x95")) continue;
        ++checked;
        INFO("line: ", line);
        CHECK(glint::engine::report::display_width(line) <= width);
    }
    return checked;
}

}  // namespace

TEST_CASE("e2e line width: --capabilities fits 100 columns when piped") {
    const auto r = run_process({fixture_path("basic"), "--capabilities"});
    REQUIRE(r.exit_code == 0);
    CHECK(check_fits(r.out, glint::engine::report::kPipedWidth) > 5);
    check_fits(r.err, glint::engine::report::kPipedWidth);
}

// Every --perf variant, both streams: the notes of each (read paths, inherit, the profile's).
TEST_CASE("e2e line width: every line of a --perf run fits 100 columns, whatever the variant") {
    if (!glint::test::kLinux)
        return glint::test::skip("--perf opens perf_event groups: Linux only");
    for (const char* variant : {"--perf-read=auto", "--perf-read=rdpmc", "--perf-read=compare",
                                "--perf-read=syscall", "--perf-inherit", "--profile"}) {
        CAPTURE(variant);
        const auto r = run_process({fixture_path("basic"), "--bench", "--perf", variant,
                                    "--bench-min-time=0.05", "--filter=add_chain"});
        REQUIRE(r.exit_code == 0);
        CHECK(check_fits(r.out, glint::engine::report::kPipedWidth) > 5);
        check_fits(r.err, glint::engine::report::kPipedWidth);
    }
}

// Without a hardware PMU (this host or a VM like it) the fallback is one note and its remedy
// another; nothing else repeats the cause. Hosts with a PMU print neither.
TEST_CASE("e2e line width: --perf without a PMU states the fallback once, then the remedy") {
    if (!glint::test::kLinux)
        return glint::test::skip("--perf opens perf_event groups: Linux only");
    const auto r = run_process({fixture_path("basic"), "--bench", "--perf", "--bench-min-time=0.05",
                                "--filter=add_chain"});
    REQUIRE(r.exit_code == 0);
    const std::string out = glint::test::unwrapped(r.out);
    if (!glint::test::contains(out, "perf: software events only"))
        return glint::test::skip("a hardware group opened here: no software fallback to state");
    std::istringstream in(out);
    std::vector<std::string> perf;
    for (std::string line; std::getline(in, line);)
        if (line.starts_with("perf: ")) perf.push_back(line);
    CAPTURE(r.out);
    REQUIRE(perf.size() == 3);
    CHECK(perf[0].starts_with("perf: software events only, task-clock"));
    CHECK(perf[1].starts_with("perf: remedy: "));
    CHECK(perf[2].starts_with("perf: read path syscall"));
    int cause = 0;
    for (const auto& line : perf) cause += glint::test::contains(line, "hardware PMU") ? 1 : 0;
    CHECK(cause == 2);  // the fallback's cause, and the remedy's "need a hardware PMU"
    CHECK_FALSE(glint::test::contains(out, "rdpmc"));
}

TEST_CASE("e2e line width: --perf's notes fit 100 columns and task-clock is a time") {
    if (!glint::test::kLinux)
        return glint::test::skip("--perf opens perf_event groups: Linux only");
    const auto r = run_process(
        {fixture_path("basic"), "--bench", "--perf", "--bench-min-time=0.2", "--filter=*"});
    REQUIRE(r.exit_code == 0);
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.out.find("perf: ") != std::string::npos);
    CHECK(check_fits(r.out, glint::engine::report::kPipedWidth) > 5);
    check_fits(r.err, glint::engine::report::kPipedWidth);
    // Where the task-clock column is shown, each of its cells is a time or "—".
    std::istringstream in(r.out);
    std::string line;
    int task_clock = -1, time_cells = 0;
    static const std::regex time_cell(R"(^ *((?:≈)?-?[0-9]+\.[0-9]+(ns|µs|ms|s)|—) *$)");
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        for (std::size_t at = 0, bar; (bar = line.find("│", at)) != std::string::npos; at = bar + 3)
            cells.push_back(line.substr(at, bar - at));
        if (cells.empty()) continue;
        for (std::size_t i = 0; i < cells.size(); ++i)
            if (cells[i].find("task-clock") != std::string::npos) task_clock = static_cast<int>(i);
        if (task_clock < 0 || static_cast<std::size_t>(task_clock) >= cells.size() ||
            cells[task_clock].find("task-clock") != std::string::npos)
            continue;
        INFO("row: ", line);
        CHECK(std::regex_match(cells[task_clock], time_cell));
        ++time_cells;
    }
    if (task_clock >= 0) CHECK(time_cells > 0);
}
