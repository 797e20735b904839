// The option table is the one source of the parser, --help, the JSON knobs and docs/flags.md
// (engine/cli/option_table.hpp): each test fails when one of them disagrees with the rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/cli/option_table.hpp"
#include "parse.hpp"

using namespace glint::engine;
using glint::engine::test::error_of;
using glint::engine::test::parse;

namespace {

// The row's flag as a command line gives it, with its example value.
std::string with_example(const OptionRow& row) {
    std::string arg(row.flag);
    if (row.takes == Takes::value || (row.takes == Takes::optional_value && !row.example.empty()))
        arg += "=" + std::string(row.example);
    return arg;
}

}  // namespace

TEST_CASE(
    "option table: docs/flags.md is the table's markdown (regenerate: <bench binary> "
    "--help-markdown)") {
    std::ifstream in(std::string(GLINT_TEST_SOURCE_DIR) + "/docs/flags.md", std::ios::binary);
    REQUIRE(in);
    std::ostringstream committed;
    committed << in.rdbuf();
    CHECK(committed.str() == flags_markdown());
}

TEST_CASE("option table: every row parses with its example and stores under its own name") {
    for (const OptionRow& row : option_rows()) {
        const std::string arg = with_example(row);
        INFO(arg);
        CHECK(error_of({"--list", arg.c_str()}) == "");
        CHECK(find_option(row.flag) == &row);
        if (row.takes == Takes::value)
            CHECK(error_of({std::string(row.flag).c_str()}).find("needs a value") !=
                  std::string::npos);
        if (row.takes == Takes::nothing)
            CHECK(error_of({(arg + "=x").c_str()}).find("takes no value") != std::string::npos);
    }
    CHECK(error_of({"--no-such-flag"}) == "unknown flag '--no-such-flag'; see --help");
    CHECK(find_option("-h") == find_option("--help"));
}

TEST_CASE("option table: --help shows every visible row, and only rows") {
    const std::string help = help_text();
    std::size_t shown = 0;
    for (const OptionRow& row : option_rows()) {
        const std::string head = "\n  " + std::string(row.flag) + std::string(row.shown) + " ";
        INFO(row.flag);
        CHECK((help.find(head) != std::string::npos) == !row.hidden);
        shown += row.hidden ? 0 : 1;
    }
    std::istringstream lines(help);
    std::size_t flag_lines = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("  --", 0) != 0) continue;
        ++flag_lines;
        const std::string flag = line.substr(2, line.find_first_of("=[ ", 2) - 2);
        INFO(line);
        CHECK(find_option(flag) != nullptr);
    }
    CHECK(flag_lines == shown);
}

TEST_CASE("option table: each knob JSON records comes from its row and follows its flag") {
    const Json defaults = recorded_knobs(parse({}));
    std::size_t rows_with_knobs = 0;
    for (const OptionRow& row : option_rows()) {
        if (row.knob.empty()) continue;
        ++rows_with_knobs;
        const std::string arg = with_example(row);
        INFO(arg);
        REQUIRE(static_cast<bool>(row.recorded));
        const Json given = recorded_knobs(parse({arg.c_str()}));
        REQUIRE(given.contains(std::string(row.knob)));
        CHECK_FALSE(given.at(std::string(row.knob)) == defaults.at(std::string(row.knob)));
    }
    // Every knob but the fixed sample count is a row's.
    CHECK(defaults.as_object().size() == rows_with_knobs + 1);
    CHECK(defaults.at("samples") == Json(32));
    CHECK(plan_run(parse({"--bench", "--bench-repeat=3"})).knobs.at("repetitions") == Json(3));
}

TEST_CASE("option table: a row's scope is what the no-effect notes say") {
    for (const OptionRow& row : option_rows()) {
        const std::string arg = with_example(row);
        const std::string note = std::string(row.flag) + " has no effect without --bench";
        INFO(arg);
        // Modes with notes of their own (flag notes test); --format needs --list.
        if (row.flag == "--group-by" || row.flag == "--recover-journal" || row.flag == "--format")
            continue;
        const auto plain = ineffective_flag_notes(parse({arg.c_str()}));
        const bool noted = std::find(plain.begin(), plain.end(), note) != plain.end();
        CHECK(noted == (row.scope != Scope::anywhere));
        CHECK(ineffective_flag_notes(parse({"--bench", arg.c_str()})).empty());
        if (row.scope == Scope::counting)
            CHECK(ineffective_flag_notes(parse({"--list-metrics", arg.c_str()})).empty());
    }
}

TEST_CASE("option table: docs/running.md's flags by topic names every visible row, and only rows") {
    std::ifstream in(std::string(GLINT_TEST_SOURCE_DIR) + "/docs/running.md", std::ios::binary);
    REQUIRE(in);
    std::ostringstream whole;
    whole << in.rdbuf();
    const std::string page = whole.str();
    const std::size_t begin = page.find("\n## Flags by topic\n");
    REQUIRE(begin != std::string::npos);
    const std::string section = page.substr(begin, page.find("\n## ", begin + 1) - begin);
    // Every `--flag` token the summary names (up to '=', '[', a space or a backquote).
    std::vector<std::string> named;
    for (std::size_t at = section.find("`--"); at != std::string::npos;
         at = section.find("`--", at + 1)) {
        std::size_t end = at + 3;
        while (end < section.size() &&
               (std::isalnum(static_cast<unsigned char>(section[end])) || section[end] == '-'))
            ++end;
        named.push_back(section.substr(at + 1, end - at - 1));
    }
    REQUIRE(!named.empty());
    for (const std::string& flag : named) {
        INFO(flag);
        CHECK(find_option(flag) != nullptr);
    }
    for (const OptionRow& row : option_rows()) {
        if (row.hidden || row.flag == "--help") continue;
        INFO(row.flag);
        CHECK(std::find(named.begin(), named.end(), std::string(row.flag)) != named.end());
    }
}
