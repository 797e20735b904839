// End to end: the hostile fixture's names, labels, failure message, metric unit and provenance
// (terminal escapes, markup, formulas, invalid UTF-8, a 300-character name) through every
// writer: plain mode, --list (text and JSON), the box/md/csv run tables and the failure lines,
// --bench-json, --bench-html, glint-compare (box, md, json, --html) and --bench-baseline. No
// raw control byte reaches any output, no markup is live, every document is read back.
#include <doctest/doctest.h>

#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "engine/model/sanitize.hpp"
#include "hostile_checks.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::compare_path;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::hostile::bench;
using glint::test::hostile::check_terminal;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

// The hostile markup never appears as such (it shows escaped).
void check_no_live_markup(const std::string& text, const std::string& where) {
    INFO(where);
    CHECK_FALSE(contains(text, "<!--"));
    CHECK_FALSE(contains(text, "<b>"));
    CHECK_FALSE(contains(text, "</td><b"));
}

// The text outside fenced blocks (``` lines and what they enclose): a fence's content is shown
// verbatim by a markdown renderer, never read as markup. An unclosed fence fails.
std::string outside_fences(const std::string& text) {
    std::string out;
    std::string fence;  // the open fence ("" outside one)
    for (const auto& line : lines_of(text)) {
        const std::size_t ticks = line.find_first_not_of('`');
        if (fence.empty() && line.rfind("```", 0) == 0) fence = line.substr(0, ticks);
        else if (!fence.empty() && line == fence) fence.clear();
        else if (fence.empty()) out += line + "\n";
    }
    CHECK_MESSAGE(fence.empty(), "an unclosed fence");
    return out;
}

// Markdown: terminal-safe, no markup outside fenced blocks, and every row of a table has its
// header's cell count.
void check_markdown(const std::string& text, const std::string& where) {
    check_terminal(text, where);
    check_no_live_markup(outside_fences(text), where);
    INFO(where);
    const auto cells = [](const std::string& line) {
        std::size_t n = 0;
        for (std::size_t i = 0; i < line.size(); ++i)
            if (line[i] == '\\') ++i;
            else if (line[i] == '|') ++n;
        return n;
    };
    std::size_t expected = 0;
    std::size_t rows = 0;
    for (const auto& line : lines_of(text)) {
        if (line.rfind("|:---", 0) == 0) expected = cells(line);
        else if (line.rfind("| ", 0) == 0 && expected) {
            CHECK_MESSAGE(cells(line) == expected, line);
            ++rows;
        } else if (line.empty()) expected = 0;
    }
    CHECK(rows > 0);
}

// CSV: terminal-safe, every record has the header's field count, and no text field starts a
// formula (= + - @).
void check_csv(const std::string& text, const std::string& where) {
    check_terminal(text, where);
    INFO(where);
    std::size_t header_fields = 0;
    std::size_t records = 0;
    for (const auto& line : lines_of(text)) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> fields{""};
        bool quoted = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (quoted && line[i] == '"' && i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += line[i++];
            else if (line[i] == '"') quoted = !quoted;
            else if (line[i] == ',' && !quoted) fields.emplace_back();
            else fields.back() += line[i];
        }
        if (line.rfind("benchmark,", 0) == 0) header_fields = fields.size();  // each table's own
        CHECK_MESSAGE(fields.size() == header_fields, line);
        for (const auto& f : fields) {
            const bool number = !f.empty() &&
                                f.find_first_not_of("0123456789.e+-") == std::string::npos &&
                                f.find_first_of("0123456789") == 0;
            if (!f.empty() && !number)
                CHECK_MESSAGE(std::string("=+-@").find(f[0]) == std::string::npos, f);
        }
        ++records;
    }
    CHECK(records > 1);
}

void check_html(const std::string& text, const std::string& where) {
    INFO(where);
    CHECK(glint::engine::sanitize::is_valid_utf8(text));
    CHECK_FALSE(contains(text, "\x1b"));
    CHECK_FALSE(contains(text, "\x07"));
    check_no_live_markup(text, where);
}

}  // namespace

TEST_CASE("e2e: hostile names reach no terminal output as raw control bytes") {
    auto plain = run_process({fixture_path("hostile")});
    CHECK(plain.exit_code == 1);  // the failing case
    check_terminal(plain.out, "plain stdout");
    check_terminal(plain.err, "plain stderr");
    CHECK(contains(plain.out, "FAIL  hostile\xE2\x90\x9B[31m<!--/fails\xE2\x90\x9B[2J"));
    CHECK(contains(plain.err,
                   "msg\xE2\x90\x9B[2J\xE2\x90\x87<!-- =HYPERLINK(\"x\")\xE2\x90\x8Asecond"));

    auto list = run_process({fixture_path("hostile"), "--list"});
    CHECK(list.exit_code == 0);
    check_terminal(list.out, "--list");
    CHECK(contains(list.out, "two\xE2\x90\x8Alines"));

    glint::test::TempDir dir("glint_e2e_hostile");
    auto table = run_process(bench({"--bench-json=" + dir.file("run.json")}));
    CHECK(table.exit_code == 1);
    check_terminal(table.out, "the box table");
    check_terminal(table.err, "the run's stderr");
    CHECK(contains(table.err, "second"));  // the failure line, on one line

    auto compared = run_process({compare_path(), dir.file("run.json"), dir.file("run.json")});
    CHECK(compared.exit_code == 0);
    check_terminal(compared.out, "glint-compare box");
    check_terminal(compared.err, "glint-compare stderr");

    auto baseline = run_process(bench({"--bench-baseline=" + dir.file("run.json")}));
    CHECK(baseline.exit_code == 1);
    check_terminal(baseline.out, "--bench-baseline tables");
    check_terminal(baseline.err, "--bench-baseline stderr");
}

TEST_CASE("e2e: hostile names make no live markup or formula in markdown, CSV and HTML outputs") {
    glint::test::TempDir dir("glint_e2e_hostile");
    auto md = run_process(bench({"--bench-format=md", "--bench-json=" + dir.file("run.json"),
                                 "--bench-html=" + dir.file("run.html")}));
    CHECK(md.exit_code == 1);
    check_markdown(md.out, "--bench-format=md");
    check_html(read_file(dir.file("run.html")), "--bench-html");

    auto csv = run_process(bench({"--bench-format=csv"}));
    CHECK(csv.exit_code == 1);
    check_csv(csv.out, "--bench-format=csv");
    // The case "=HYPERLINK(...)" is named after its registration ("hostile.../=HYPERLINK(...)"),
    // so its cell starts no formula; sanitize::csv's quote for one that would is a unit test.
    CHECK(contains(csv.out, "<!--/=HYPERLINK"));

    auto compare_md = run_process({compare_path(), dir.file("run.json"), dir.file("run.json"),
                                   "--format=md", "--html=" + dir.file("compare.html")});
    CHECK(compare_md.exit_code == 0);
    check_markdown(compare_md.out, "glint-compare --format=md");
    check_html(read_file(dir.file("compare.html")), "glint-compare --html");

    auto baseline_md =
        run_process(bench({"--bench-format=md", "--bench-baseline=" + dir.file("run.json")}));
    check_markdown(baseline_md.out, "--bench-baseline --bench-format=md");
}

TEST_CASE(
    "e2e: a name with invalid UTF-8 is written as U+FFFD, said so, and read back by every reader") {
    const std::string replaced = "bad\xEF\xBF\xBD\xEF\xBF\xBDutf8";
    auto list = run_process({fixture_path("hostile"), "--list", "--format=json"});
    CHECK(list.exit_code == 0);
    check_terminal(list.out, "--list --format=json");
    CHECK(contains(list.err,
                   "2 case names are not valid UTF-8"));  // bad..utf8 and registration\xFF/inner
    const Json listed = Json::parse(list.out);
    bool found = false;
    for (const auto& c : listed.at("cases").as_array())
        found = found || c.at("name").as_string() == replaced;
    CHECK(found);

    glint::test::TempDir dir("glint_e2e_hostile");
    const std::string json = dir.file("run.json");
    auto run = run_process(bench({"--bench-json=" + json}));
    CHECK(run.exit_code == 1);
    CHECK(contains(run.err, "U+FFFD"));
    const std::string text = read_file(json);
    check_terminal(text, "--bench-json");
    const Json doc = Json::parse(text);
    const std::size_t rows = doc.at("rows").as_array().size();
    found = false;
    for (const auto& r : doc.at("rows").as_array())
        found = found || r.at("name").as_string() == replaced;
    CHECK(found);

    auto compared = run_process({compare_path(), json, json, "--format=json"});
    CHECK(compared.exit_code == 0);
    CHECK(Json::parse(compared.out).at("rows").as_array().size() == rows);

    // The run's own invalid name and the baseline's replaced one are the same row.
    auto again =
        run_process(bench({"--bench-baseline=" + json, "--bench-json=" + dir.file("again.json")}));
    CHECK(again.exit_code == 1);
    const Json meta = Json::parse(read_file(dir.file("again.json"))).at("meta").at("baseline");
    CHECK(meta.at("matched").as_number() == static_cast<double>(rows));

    if (run_process({"/usr/bin/env", "python3", "-c", "pass"}).exit_code ==
        0) {  // Python's json reads it too
        const std::string load = "import json,sys; json.load(open(sys.argv[1], encoding='utf-8'))";
        CHECK(run_process({"/usr/bin/env", "python3", "-c", load, json}).exit_code == 0);
    }
}

TEST_CASE(
    "e2e: listings and usage errors show hostile metric units, labels and flag values as visible "
    "text") {
    auto metrics = run_process({fixture_path("hostile"), "--list-metrics"});
    CHECK(metrics.exit_code == 0);
    check_terminal(metrics.out, "--list-metrics");
    CHECK(contains(metrics.out, "B\xE2\x90\x9B[31m<!--|"));

    auto keys = run_process({fixture_path("hostile"), "--bench", "--group-by=list"});
    CHECK(keys.exit_code == 0);
    check_terminal(keys.out, "--group-by=list");
    CHECK(contains(keys.out, "k\xE2\x90\x9B[1m: v<!--|"));

    auto bad = run_process({fixture_path("hostile"), "--bench", "--bench-min-time=\x1b[2J"});
    CHECK(bad.exit_code == 2);
    check_terminal(bad.err, "glint usage error");
    auto bad_compare = run_process({compare_path(), "--threshold=\x1b[2J\x07", "a.json", "b.json"});
    CHECK(bad_compare.exit_code == 2);
    check_terminal(bad_compare.err, "glint-compare usage error");
}

TEST_CASE("e2e: the warning about rows sharing an identity shows a hostile name as visible text") {
    auto run = run_process(bench({}), {"GLINT_FIXTURE_HOSTILE_TWICE=1"});
    CHECK(run.exit_code == 1);
    CHECK(contains(run.err, "two rows share the identity"));
    check_terminal(run.err, "the duplicate-identity warning");
}

TEST_CASE(
    "e2e: glint-compare shows a hostile document path as visible text in its summary, box and "
    "markdown") {
    glint::test::TempDir dir("glint_e2e_hostile");
    const std::string json = dir.file("run\x1b[2J<!--.json");
    REQUIRE(run_process(bench({"--bench-json=" + json})).exit_code == 1);
    auto box = run_process({compare_path(), json, json});
    CHECK(box.exit_code == 0);
    check_terminal(box.out, "glint-compare box summary");
    CHECK(contains(box.out, "run\xE2\x90\x9B[2J<!--.json vs "));
    auto md = run_process({compare_path(), json, json, "--format=md"});
    CHECK(md.exit_code == 0);
    check_markdown(md.out, "glint-compare md summary");
}

TEST_CASE("e2e: a hostile case that outlives --case-timeout or a SIGINT is named as visible text") {
    const std::vector<std::string> env{"GLINT_FIXTURE_HOSTILE_HANG=1"};
    auto timed_out = run_process(bench({"--filter=*hang*", "--case-timeout=1"}), env);
    CHECK(timed_out.exit_code == 1);
    check_terminal(timed_out.err, "--case-timeout");
    CHECK(contains(timed_out.err, "'hang\xE2\x90\x9B[2J' is still running"));

    glint::test::TempDir dir("glint_e2e_hostile");
    glint::test::BackgroundProcess run(
        bench({"--filter=*hang*", "--bench-json=" + dir.file("run.json")}), env);
    // The header prints just before the only case starts: SIGINT then finds it in flight.
    REQUIRE(glint::test::wait_until([&] { return contains(run.out(), "protocol:"); }));
    REQUIRE(::kill(run.pid(), SIGINT) == 0);
    const auto stopped = run.wait(30);
    CHECK(stopped.exit_code == 128 + SIGINT);
    check_terminal(stopped.err, "SIGINT during the case");
    CHECK(contains(stopped.err, "hang\xE2\x90\x9B[2J"));
}

TEST_CASE(
    "e2e: a run stopped by SIGINT at a hostile case's checkpoint names it and its labels as "
    "visible text") {
    glint::test::TempDir dir("glint_e2e_hostile");
    glint::test::BackgroundProcess run(
        bench({"--filter=*hang*", "--bench-repeat=20", "--bench-json=" + dir.file("run.json")}),
        {"GLINT_FIXTURE_HOSTILE_HANG=slow"});
    REQUIRE(glint::test::wait_until([&] { return contains(run.err(), "repetition 2 of 20"); }));
    REQUIRE(::kill(run.pid(), SIGINT) == 0);
    const auto stopped = run.wait(60);
    CHECK(stopped.exit_code == 128 + SIGINT);
    check_terminal(stopped.err, "SIGINT at a checkpoint");
    check_terminal(stopped.out, "SIGINT at a checkpoint, the table");
    // The signal lands in the case (stderr names it) or between two of its repetitions (stderr
    // says "between cases"; the partial row's mark under the table names it).
    INFO(stopped.err);
    CHECK(contains(stopped.err + stopped.out, "[k\xE2\x90\x9B[1m=v\xE2\x90\x87]"));
}
