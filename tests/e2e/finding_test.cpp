// End to end: finding cases. --list (text and JSON), each kind of --filter term and their
// combinations through the binary, malformed filters, --version.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <string>

#include "engine/model/json.hpp"
#include "support/process.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;

namespace {

// The "ok" lines of a plain run, in order.
std::string passed(const std::vector<std::string>& args) {
    std::vector<std::string> argv{fixture_path("params")};
    argv.insert(argv.end(), args.begin(), args.end());
    auto r = run_process(argv);
    REQUIRE(r.exit_code == 0);
    std::string lines;
    std::size_t at = 0;
    while ((at = r.out.find("ok    ", at)) != std::string::npos) {
        const auto end = r.out.find('\n', at);
        lines += r.out.substr(at + 6, end - at - 6) + "\n";
        at = end;
    }
    return lines;
}

}  // namespace

TEST_CASE("e2e finding: --list prints every case with its labels, and runs nothing") {
    auto r = run_process({fixture_path("basic"), "--list"});
    CHECK(r.exit_code == 0);
    CHECK(r.out ==
          "add_chain\n"
          "whole_body\n"
          "pinned\n"
          "matrix/memcpy [dataset=small,operation=copy]\n"
          "matrix/fill [dataset=small,operation=copy]\n"
          "matrix/memcpy [dataset=large,operation=copy]\n"
          "matrix/fill [dataset=large,operation=copy]\n");
    auto bench = run_process({fixture_path("basic"), "--list", "--bench"});
    CHECK(bench.out == r.out);  // --list never measures
    CHECK_FALSE(contains(bench.out, "╭"));
    auto filtered = run_process({fixture_path("params"), "--list", "--filter=size=512"});
    CHECK(filtered.out == "linear [size=512]\nconstant [size=512]\n");
}

TEST_CASE("e2e finding: --list --format=json is parseable and names each case as JSON rows do") {
    auto r =
        run_process({fixture_path("params"), "--list", "--format=json", "--filter=lookup,linear"});
    REQUIRE(r.exit_code == 0);
    const Json doc = Json::parse(r.out);
    CHECK(doc.at("glint").is_string());
    const auto& cases = doc.at("cases").as_array();
    REQUIRE(cases.size() == 8);
    CHECK(cases[0].at("path").as_string() == "linear");
    CHECK(cases[0].at("name").as_string() == "linear");
    CHECK(cases[0].at("kind").as_string() == "iter");
    CHECK(cases[0].at("labels").at("size").as_string() == "64");
    CHECK(cases[4].at("path").as_string() == "lookup/find");
    CHECK(cases[4].at("registration").as_string() == "lookup");
    CHECK(cases[4].at("name").as_string() == "find");
    CHECK(cases[4].at("kind").as_string() == "bench_case");
    CHECK(cases[4].at("labels").at("op").as_string() == "find");
    auto body = run_process({fixture_path("basic"), "--list", "--format=json", "--filter=whole*"});
    CHECK(Json::parse(body.out).at("cases").as_array().at(0).at("kind").as_string() == "body");
}

TEST_CASE("e2e finding: --filter terms: globs, substrings, labels, alternatives, exclusions") {
    CHECK(passed({"--filter=*near*"}) ==  // a substring, as a glob over the path
          "linear [size=64]\nlinear [size=512]\nlinear [size=4096]\nlinear [size=32768]\n");
    CHECK(passed({"--filter=size=512"}) == "linear [size=512]\nconstant [size=512]\n");
    CHECK(passed({"--filter=size=512,size=64,constant"}) ==
          "constant [size=64]\nconstant [size=512]\n");
    CHECK(passed({"--filter=lookup,-op=count"}) ==
          "lookup/find [op=find,size=10]\nlookup/find [op=find,size=1000]\n");
    CHECK(passed({"--filter=grid,rows=2,cols=10,cols=30"}) ==
          "grid [cols=10,rows=2]\ngrid [cols=30,rows=2]\n");
    auto none = run_process({fixture_path("params"), "--filter=lookup/find,-size=1*"});
    CHECK(none.exit_code == 2);  // selects nothing: refused, never a silent empty run
    CHECK(contains(none.err, "selects no case"));
    CHECK(passed({"--filter=-linear,-constant,-grid,-lookup/count"}) ==
          "lookup/find [op=find,size=10]\nlookup/find [op=find,size=1000]\n");
}

TEST_CASE("e2e finding: --filter selects the same rows when measuring") {
    const std::string json = glint::test::temp_json_path("filter");
    auto r = run_process({fixture_path("params"), "--bench", "--bench-min-time=0.2",
                          "--filter=linear,constant,size=64", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    std::string rows;
    for (const auto& row : doc.at("rows").as_array())
        rows += row.at("name").as_string() + "=" + row.at("labels").at("size").as_string() + " ";
    CHECK(rows == "linear=64 constant=64 ");
    CHECK(doc.at("meta").at("knobs").at("filter").as_string() == "linear,constant,size=64");
}

TEST_CASE("e2e finding: a malformed --filter or --format exits 2 with one line, before running") {
    auto empty = run_process({fixture_path("params"), "--filter=linear,,grid"});
    CHECK(empty.exit_code == 2);
    CHECK(empty.err ==
          "glint: error: --filter: an empty term in 'linear,,grid'; separate "
          "patterns with single commas\n");
    CHECK(empty.out.empty());
    auto dash = run_process({fixture_path("params"), "--bench", "--filter=-"});
    CHECK(dash.exit_code == 2);
    CHECK(contains(dash.err, "'-' excludes nothing"));
    auto format = run_process({fixture_path("params"), "--format=json"});
    CHECK(format.exit_code == 2);
    CHECK(contains(format.err, "--format: applies to --list only"));
    auto bad = run_process({fixture_path("params"), "--list", "--format=xml"});
    CHECK(bad.exit_code == 2);
}

TEST_CASE("e2e finding: a malformed --filter is bad usage in the informational modes too") {
    for (const char* mode : {"--list-metrics", "--capabilities", "--group-by=list", "--list"}) {
        CAPTURE(mode);
        auto r = run_process({fixture_path("params"), mode, "--filter=linear,,grid"});
        CHECK(r.exit_code == 2);
        CHECK(r.err ==
              "glint: error: --filter: an empty term in 'linear,,grid'; separate "
              "patterns with single commas\n");
        CHECK(r.out.empty());
    }
}

TEST_CASE("e2e finding: a filter that selects nothing exits 2 in every mode, naming close labels") {
    for (const char* mode : {"--list", "--bench", "--group-by=list"}) {
        CAPTURE(mode);
        auto r = run_process({fixture_path("params"), mode, "--filter=linear,size=100"});
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(contains(r.err, "--filter: 'linear,size=100' selects no case; closest names: "));
        CHECK(contains(r.err, "size=1000"));  // the label term's neighbours
        CHECK(contains(r.err, "size=10"));
    }
    auto glob = run_process({fixture_path("params"), "--filter=*zzz*"});
    CHECK(glob.exit_code == 2);
    CHECK_FALSE(contains(glob.err, "matches a substring"));  // the term is a glob already
}

TEST_CASE("e2e finding: --version prints the CMake project version") {
    std::ifstream cmake(std::string(GLINT_TEST_SOURCE_DIR) + "/CMakeLists.txt");
    const std::string text((std::istreambuf_iterator<char>(cmake)),
                           std::istreambuf_iterator<char>());
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex(R"(project\(glint VERSION ([0-9.]+))")));
    auto r = run_process({fixture_path("basic"), "--version"});
    CHECK(r.exit_code == 0);
    CHECK(r.out == "glint " + m[1].str() + "\n");
}
