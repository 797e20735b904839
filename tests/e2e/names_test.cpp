// End to end: one display name per row (engine/model/row.hpp), on the names fixture: the
// table's name cell, the --list line, JSON rows' displayName, --list --format=json, glint-compare
// (table, markdown and JSON) print the same string, and --filter with each printed name selects
// exactly that row; a registration named "split/1KiB" is selected by "split".
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::compare_path;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::temp_path;

namespace {

const std::vector<std::string> kNames{"split/1KiB", "count/comma [len=256,op=count]",
                                      "count/comma [len=4096,op=count]"};

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// `name` as markdown shows it: brackets escaped, rendered as they are.
std::string escaped(const std::string& name) {
    std::string out;
    for (char c : name) out += c == '[' || c == ']' ? std::string("\\") + c : std::string(1, c);
    return out;
}

// The names --list prints for `filter` ("" for every case), one per line.
std::vector<std::string> listed(const std::string& filter) {
    std::vector<std::string> argv{fixture_path("names"), "--list"};
    if (!filter.empty()) argv.push_back("--filter=" + filter);
    const auto r = run_process(argv);
    REQUIRE(r.exit_code == 0);
    std::vector<std::string> lines;
    for (std::size_t at = 0; at < r.out.size();) {
        const std::size_t end = r.out.find('\n', at);
        lines.push_back(r.out.substr(at, end - at));
        at = end + 1;
    }
    return lines;
}

// The names of the rows a --bench run with `filter` writes to its JSON document.
std::vector<std::string> measured(const std::string& filter) {
    const std::string json = temp_path("names-filter") + ".json";
    const auto r = run_process({fixture_path("names"), "--bench", "--bench-min-time=0.05",
                                "--filter=" + filter, "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    std::vector<std::string> names;
    const Json doc = Json::parse(read_file(json));
    for (const auto& row : doc.at("rows").as_array())
        names.push_back(row.at("displayName").as_string());
    std::remove(json.c_str());
    return names;
}

}  // namespace

TEST_CASE("e2e names: the table, --list, JSON and glint-compare print one name per row") {
    CHECK(listed("") == kNames);
    const auto list_json = run_process({fixture_path("names"), "--list", "--format=json"});
    REQUIRE(list_json.exit_code == 0);
    const Json list_doc = Json::parse(list_json.out);
    const auto& cases = list_doc.at("cases").as_array();
    REQUIRE(cases.size() == kNames.size());
    for (std::size_t i = 0; i < cases.size(); ++i)
        CHECK(cases[i].at("displayName").as_string() == kNames[i]);

    const std::string json = temp_path("names") + ".json";
    const auto run = run_process(
        {fixture_path("names"), "--bench", "--bench-min-time=0.05", "--bench-json=" + json});
    REQUIRE(run.exit_code == 0);
    const Json doc = Json::parse(read_file(json));
    const auto& rows = doc.at("rows").as_array();
    REQUIRE(rows.size() == kNames.size());
    const auto compared = run_process({compare_path(), json, json});
    const auto markdown = run_process({compare_path(), "--format=md", json, json});
    const auto compared_json = run_process({compare_path(), "--format=json", json, json});
    REQUIRE(compared_json.out.size() > 0);
    const Json compared_doc = Json::parse(compared_json.out);
    const auto& compared_rows = compared_doc.at("rows").as_array();
    REQUIRE(compared_rows.size() == kNames.size());
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        const std::string& name = kNames[i];
        CAPTURE(name);
        CHECK(contains(run.out, "│ " + name + " "));                 // the table's name cell
        CHECK(rows[i].at("displayName").as_string() == name);        // JSON rows
        CHECK(contains(compared.out, "│ " + name + " "));            // glint-compare's table
        CHECK(contains(markdown.out, "| " + escaped(name) + " |"));  // and its markdown
        CHECK(compared_rows[i].at("displayName").as_string() == name);
    }
    std::remove(json.c_str());
}

TEST_CASE("e2e names: --filter with each printed name selects exactly that row") {
    for (const std::string& name : kNames) {
        CAPTURE(name);
        CHECK(listed(name) == std::vector<std::string>{name});
        CHECK(measured(name) == std::vector<std::string>{name});
    }
    // A leading part up to a '/', a '#', " [" or ',' selects too, as a user types it.
    CHECK(listed("split") == std::vector<std::string>{"split/1KiB"});
    CHECK(measured("split") == std::vector<std::string>{"split/1KiB"});
    CHECK(listed("count/comma [len=256") == std::vector<std::string>{kNames[1]});
    CHECK(listed("count/comma") == std::vector<std::string>{kNames[1], kNames[2]});
    CHECK(listed("count,split/1KiB") == kNames);
    CHECK(listed("-split,op=count") ==
          std::vector<std::string>{kNames[1], kNames[2]});  // old forms
    CHECK(listed("len=4096") == std::vector<std::string>{kNames[2]});
    // Never a fragment of a part: that is what '*' is for.
    const auto fragment = run_process({fixture_path("names"), "--list", "--filter=spl"});
    CHECK(fragment.exit_code == 2);
    CHECK(contains(fragment.err, "selects no case; closest names: "));
    CHECK(contains(fragment.err, "split/1KiB"));
}
