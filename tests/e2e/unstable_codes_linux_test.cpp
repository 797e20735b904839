// End to end: each unstable row shows its reasons' codes (box, md, csv; grouped tables too),
// the legend names exactly the codes shown, and the table is coloured only when asked
// (--color, NO_COLOR). The noise fixture's sleeper (cpu-time) and tiny (timer-resolution) are
// unstable on every machine; what else they show varies, so the checks compare the table with
// the JSON of the same run.
#include <doctest/doctest.h>

#include <cstdio>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "engine/model/unstable_codes.hpp"
#include "engine/report/color.hpp"
#include "engine/report/text.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;

namespace {

using Run = glint::test::DocumentRun<Json>;

Run run_noise(const std::vector<std::string>& extra, const std::vector<std::string>& env = {}) {
    std::vector<std::string> args = {fixture_path("noise"), "--bench", "--bench-min-time=0.05",
                                     "--filter=sleeper,tiny"};
    args.insert(args.end(), extra.begin(), extra.end());
    Run run = glint::test::run_with_document<Json>(
        args, glint::test::temp_json_path("unstable_codes"), env);
    REQUIRE(run.result.exit_code == 0);
    REQUIRE(run.doc.is_object());
    return run;
}

std::vector<std::string> reasons(const Json& row) {
    std::vector<std::string> out;
    for (const Json& r : row.at("unstable").as_array()) out.push_back(r.as_string());
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The line of the table that names `name` in its first cell.
std::string table_line(const std::string& out, const std::string& name, const std::string& start) {
    for (const auto& line : lines_of(out))
        if (line.rfind(start + name + " ", 0) == 0) return line;
    return "";
}

// The codes the legend names ("~cpu  CPU/wall ..." -> "cpu").
std::set<std::string> legend_codes(const std::string& out) {
    std::set<std::string> codes;
    for (const auto& line : lines_of(out))
        if (line.size() > 1 && line[0] == '~' && line[1] != ' ')
            codes.insert(line.substr(1, line.find(' ') - 1));
    return codes;
}

}  // namespace

TEST_CASE("e2e: each unstable row shows its codes, and the legend names exactly those") {
    const Run run = run_noise({});
    const std::string& out = run.result.out;
    std::set<std::string> shown;
    for (const Json& row : run.doc.at("rows").as_array()) {
        const std::string name = row.at("name").as_string();
        const auto why = reasons(row);
        INFO(name);
        REQUIRE_FALSE(why.empty());  // sleeper: cpu-time, tiny: timer-resolution
        const std::string line = table_line(out, name, "│ ");
        CHECK(contains(line, "│ ~"));
        CHECK(contains(line, "│ " + glint::engine::unstable_cell(why) + " "));
        for (const auto& reason : why)
            shown.insert(std::string(glint::engine::unstable_code(reason)));
    }
    CHECK(shown.count("cpu") == 1);
    CHECK(shown.count("timer") == 1);
    CHECK(legend_codes(out) == shown);
    CHECK(contains(out, "\n~ unstable: each row's reasons as codes"));
    const Json& codes = run.doc.at("meta").at("stability").at("codes");
    CHECK(codes.at("cpu-time").as_string() == "cpu");
    CHECK(codes.at("timer-resolution").as_string() == "timer");
}

TEST_CASE("e2e: markdown and CSV carry the codes too") {
    const Run md = run_noise({"--bench-format=md"});
    CHECK(contains(md.result.out, "| median/iter | unstable | min |"));
    for (const Json& row : md.doc.at("rows").as_array()) {
        const std::string line = table_line(md.result.out, row.at("name").as_string(), "| ");
        CHECK(contains(line, "| " + glint::engine::unstable_cell(reasons(row)) + " |"));
    }
    const Run csv = run_noise({"--bench-format=csv"});
    CHECK(contains(csv.result.out, ",error,unstable\n"));
    for (const Json& row : csv.doc.at("rows").as_array()) {
        const std::string all = glint::engine::unstable_cell(reasons(row), " ");
        std::string line;
        for (const auto& l : lines_of(csv.result.out))
            if (l.rfind(row.at("name").as_string() + ",", 0) == 0) line = l;
        CHECK(line.ends_with("," + all));
    }
}

TEST_CASE("e2e: grouped tables show each unstable row's codes") {
    const std::string json = glint::test::temp_json_path("unstable_grouped");
    auto r = run_process({fixture_path("basic"), "--bench", "--bench-min-time=0.05",
                          "--group-by=dataset", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    bool any = false;
    for (const Json& row : doc.at("rows").as_array()) {
        if (!row.find("unstable") || reasons(row).empty()) continue;
        any = true;
        CHECK(contains(r.out, " │ " + glint::engine::unstable_cell(reasons(row)) + " "));
    }
    CHECK(contains(r.out, "unstable") == any);
}

TEST_CASE("e2e: --color=always paints the piped table, by default, never or md none") {
    const Run plain = run_noise({});
    CHECK_FALSE(contains(plain.result.out, "\x1b["));
    CHECK_FALSE(contains(run_noise({"--color=never"}).result.out, "\x1b["));
    CHECK_FALSE(contains(run_noise({"--color=always", "--bench-format=md"}).result.out, "\x1b["));
    CHECK_FALSE(contains(run_noise({}, {"NO_COLOR=1"}).result.out, "\x1b["));
    // The flag overrides NO_COLOR (https://no-color.org).
    const Run painted = run_noise({"--color=always"}, {"NO_COLOR=1"});
    const std::string& out = painted.result.out;
    using namespace glint::engine::report;
    CHECK(contains(out, std::string(kBold) + "benchmark" + std::string(kResetStyle)));
    CHECK(contains(out, std::string(kUnstableStyle) + "~" + std::string(kResetStyle)));
    // Every line of the table is as wide as its top border, escape codes aside.
    std::size_t width = 0;
    for (const auto& line : lines_of(out)) {
        if (line.rfind("╭", 0) == 0) width = display_width(line);
        if (line.rfind("│", 0) == 0 || line.rfind("╰", 0) == 0) {
            CHECK(display_width(line) == width);
            CHECK(display_width(line) == display_width(without_escapes(line)));
        }
    }
    CHECK(width > 0);
}

TEST_CASE("e2e: --color takes auto, always or never") {
    auto r = run_process({fixture_path("noise"), "--bench", "--color=rainbow"});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "--color: 'rainbow' is not one of auto, always, never"));
}

// auto on a real terminal: util-linux's script(1) gives the run a pseudo-terminal (its
// transcript goes to a file the test made). The live table paints its header bold, unless
// NO_COLOR is set or TERM is dumb.
TEST_CASE("e2e: --color=auto paints a terminal, unless NO_COLOR is set or TERM=dumb") {
    const auto which = run_process({"/bin/sh", "-c", "command -v script"});
    if (which.exit_code != 0)
        return glint::test::skip("no script(1) here (util-linux): no pseudo-terminal to run under");
    const std::string script = which.out.substr(0, which.out.find('\n'));
    const std::string bold_header = std::string(glint::engine::report::kBold) + "benchmark" +
                                    std::string(glint::engine::report::kResetStyle);
    const auto on_terminal = [&](const std::string& env) {
        const std::string transcript = glint::test::temp_json_path("color_tty") + ".txt";
        const auto r = run_process({script, "-q", "-e", "-c",
                                    "env " + env + " '" + fixture_path("basic") +
                                        "' --bench --bench-min-time=0.05 --filter=add_chain",
                                    transcript});
        const std::string out = glint::test::read_file(transcript);
        std::remove(transcript.c_str());
        INFO(env << ": " << out);
        CHECK(r.exit_code == 0);
        CHECK(contains(out, "add_chain"));
        return contains(out, bold_header);
    };
    CHECK(on_terminal("-u NO_COLOR TERM=xterm"));
    CHECK_FALSE(on_terminal("NO_COLOR=1 TERM=xterm"));
    CHECK(on_terminal("NO_COLOR= TERM=xterm"));  // set but empty: no-color.org says paint
    CHECK_FALSE(on_terminal("-u NO_COLOR TERM=dumb"));
}
