// End to end: a time-valued metric column (task-clock, catalog::Format::nanoseconds) reads in
// the same units as the time columns beside it in every output: markdown and the HTML report
// render "14.8µs" / "104.66ns" (never the SI count "14.8k"), CSV writes plain nanoseconds under a
// "task-clock_ns" header, as it writes median_ns. (The box table: line_width_test.cpp.)
#include <doctest/doctest.h>

#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.hpp"

using glint::test::fixture_path;
using glint::test::run_process;

namespace {

const std::regex kTimeCell(R"(^(?:\\?~|≈)?(?:&lt;|<)?-?[0-9]+\.[0-9]+(ns|µs|ms|s)$|^—$)");

std::vector<std::string> split(const std::string& line, char sep) {
    std::vector<std::string> cells;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, sep);) {
        const auto first = cell.find_first_not_of(' ');
        const auto last = cell.find_last_not_of(' ');
        cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    return cells;
}

glint::test::ProcessResult perf_run(const std::vector<std::string>& extra) {
    std::vector<std::string> argv{fixture_path("basic"), "--bench", "--perf",
                                  "--bench-min-time=0.2", "--filter=*"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    auto r = run_process(argv);
    REQUIRE(r.exit_code == 0);
    return r;
}

}  // namespace

TEST_CASE("e2e time units: markdown's task-clock cells are times") {
    const auto r = perf_run({"--bench-format=md"});
    CAPTURE(r.out);
    std::istringstream in(r.out);
    int column = -1, cells = 0;
    for (std::string line; std::getline(in, line);) {
        if (!line.starts_with("|")) continue;
        const auto row = split(line, '|');
        for (std::size_t i = 0; i < row.size(); ++i)
            if (row[i] == "task-clock/iter") column = static_cast<int>(i);
        if (column < 0 || row[column] == "task-clock/iter" || row[column].starts_with("---"))
            continue;
        INFO("row: ", line);
        CHECK(std::regex_match(row[column], kTimeCell));
        ++cells;
    }
    CHECK(cells > 0);
}

TEST_CASE("e2e time units: CSV names the unit in the header and writes plain nanoseconds") {
    const auto r = perf_run({"--bench-format=csv"});
    CAPTURE(r.out);
    std::istringstream in(r.out);
    int column = -1, cells = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line.starts_with("#")) continue;
        const auto row = split(line, ',');
        if (row[0] == "benchmark") {
            for (std::size_t i = 0; i < row.size(); ++i)
                if (row[i] == "task-clock_ns") column = static_cast<int>(i);
            continue;
        }
        REQUIRE(column >= 0);
        INFO("row: ", line);
        CHECK(std::regex_match(row[column],
                               std::regex(R"(^(-?[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?)?$)")));
        ++cells;
    }
    CHECK(cells > 0);
}

TEST_CASE("e2e time units: the HTML report's task-clock cells are times") {
    const std::string path = glint::test::temp_json_path("time_units_html") + ".html";
    perf_run({"--bench-html=" + path});
    const std::string html = glint::test::read_file(path);
    std::remove(path.c_str());
    static const std::regex cell(R"re(<td class="num" data-col="task-clock"[^>]*>([^<]*)</td>)re");
    int cells = 0;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), cell);
         it != std::sregex_iterator(); ++it) {
        INFO("cell: ", (*it)[1].str());
        CHECK(std::regex_match((*it)[1].str(), kTimeCell));
        ++cells;
    }
    CHECK(cells > 0);
}
