// docs/coming-from-google-benchmark.md's flag table agrees with the hints an unknown
// --benchmark_* flag gets (engine/cli/flag_hints), both ways: each row's glint flag is the one
// the error message names (or the message says there is none, for a row of "—"), and each entry
// of flag_hints' table has a row naming the same glint flag.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/cli/flag_hints.hpp"

namespace {

struct PageRow {
    std::string benchmark;  // as written, value included (`--benchmark_format=json`)
    std::string glint;      // the glint cell's first code span, "" for "—"
};

// The flag's name: up to '=' or a space.
std::string flag_name(const std::string& text) { return text.substr(0, text.find_first_of("= ")); }

// The first `code span` of a table cell, "" when it has none.
std::string code_span(const std::string& cell) {
    const std::size_t open = cell.find('`');
    if (open == std::string::npos) return "";
    return cell.substr(open + 1, cell.find('`', open + 1) - open - 1);
}

std::vector<PageRow> page_rows() {
    std::ifstream in(std::string(GLINT_TEST_SOURCE_DIR) + "/docs/coming-from-google-benchmark.md");
    REQUIRE(in);
    std::ostringstream whole;
    whole << in.rdbuf();
    const std::string page = whole.str();
    const std::size_t begin = page.find("\n## Flags\n");
    REQUIRE(begin != std::string::npos);
    std::istringstream section(page.substr(begin, page.find("\n## ", begin + 1) - begin));
    std::vector<PageRow> rows;
    for (std::string line; std::getline(section, line);) {
        if (!line.starts_with("| `--benchmark_")) continue;
        const std::size_t second = line.find('|', 1);
        const std::size_t third = line.find('|', second + 1);
        const std::string glint_cell = line.substr(second + 1, third - second - 1);
        rows.push_back({code_span(line.substr(0, second)), code_span(glint_cell)});
        if (rows.back().glint.empty())
            CHECK_MESSAGE(glint_cell.find("—") != std::string::npos, line);
    }
    return rows;
}

}  // namespace

TEST_CASE("coming-from-google-benchmark: each flag row is the hint the error message gives") {
    const std::vector<PageRow> rows = page_rows();
    REQUIRE(rows.size() >= glint::engine::benchmark_flag_hints().size());
    for (const PageRow& row : rows) {
        const std::string message = glint::engine::unknown_flag_message(row.benchmark);
        INFO(row.benchmark << " -> " << message);
        if (row.glint.empty()) {
            CHECK(message.find("glint has no equivalent") != std::string::npos);
        } else {
            CHECK(message.find("glint has no equivalent") == std::string::npos);
            CHECK(message.find(flag_name(row.glint)) != std::string::npos);
        }
    }
}

TEST_CASE("coming-from-google-benchmark: every mapped flag has its row, naming glint's flag") {
    const std::vector<PageRow> rows = page_rows();
    for (const glint::engine::BenchmarkFlagHint& hint : glint::engine::benchmark_flag_hints()) {
        INFO(hint.name << " -> " << hint.ours);
        bool found = false;
        for (const PageRow& row : rows)
            found = found || (flag_name(row.benchmark) == hint.name &&
                              flag_name(row.glint) == flag_name(std::string(hint.ours)));
        CHECK(found);
    }
    // The two flags mapped by their value, not by the table.
    for (const char* by_value : {"--benchmark_format", "--benchmark_out_format"}) {
        INFO(by_value);
        bool found = false;
        for (const PageRow& row : rows) found = found || flag_name(row.benchmark) == by_value;
        CHECK(found);
    }
}
