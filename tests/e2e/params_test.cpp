// End to end: parameters and the complexity fit (fixtures params.cpp, bad_params.cpp).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/json.hpp"
#include "support/process.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;

namespace {

Json run_json(std::vector<std::string> args, const std::string& stem) {
    const std::string json = glint::test::temp_json_path(stem);
    args.insert(args.begin(), fixture_path("params"));
    args.push_back("--bench-json=" + json);
    auto r = run_process(args);
    REQUIRE(r.exit_code == 0);
    Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    return doc;
}

const Json* fit_of(const Json& doc, const std::string& path) {
    const Json* all = doc.at("meta").find("complexity");
    if (!all) return nullptr;
    for (const auto& f : all->as_array())
        if (f.at("path").as_string() == path) return &f;
    return nullptr;
}

// The fit answers what its points say, whatever the machine's load made them: the model named
// is the one whose relative residuals over the reported points (worked out here, as
// engine/stats/complexity.hpp defines them) have the smallest RMS, and each model's reported
// RMS is that one.
void check_fit_follows_points(const Json& fit) {
    const std::pair<const char*, double (*)(double)> laws[] = {
        {"O(1)", [](double) { return 1.0; }},
        {"O(log n)", [](double n) { return std::log2(n); }},
        {"O(n)", [](double n) { return n; }},
        {"O(n log n)", [](double n) { return n * std::log2(n); }},
        {"O(n^2)", [](double n) { return n * n; }},
        {"O(n^3)", [](double n) { return n * n * n; }}};
    std::string best;
    double best_rms = INFINITY;
    std::map<std::string, double> rms_of;
    for (const auto& law : laws) {
        const std::string name = law.first;  // not a structured binding: CAPTURE's lambda (clang)
        const auto& g = law.second;
        double sx = 0, sxx = 0;
        for (const auto& p : fit.at("points").as_array()) {
            const double x = g(p.at("n").as_number()) / p.at("medianNs").as_number();
            sx += x;
            sxx += x * x;
        }
        double ss = 0;
        for (const auto& p : fit.at("points").as_array()) {
            const double r = 1 - sx / sxx * g(p.at("n").as_number()) / p.at("medianNs").as_number();
            ss += r * r;
        }
        const double rms = std::sqrt(ss / static_cast<double>(fit.at("points").size()));
        rms_of[name] = rms;
        CAPTURE(name);
        // JSON numbers carry 6 significant digits: the RMS agrees to about 1e-5 (a fraction).
        CHECK(std::fabs(fit.at("models").at(name).at("rms").as_number() - rms) < 1e-4);
        if (rms < best_rms) best = name, best_rms = rms;
    }
    INFO("the best model over the points: " << best);
    CHECK(rms_of.at(fit.at("model").as_string()) <=
          best_rms + 2e-4);  // a tie within that precision
}

// Runs the fixture's `path` case with a fit, up to 3 times until the fit is `model`; returns the
// last run's document and adds each run's model to `models`. Every run's fit follows its points.
Json fit_until(const std::string& path, const std::string& model, std::string& models) {
    Json doc;
    for (int attempt = 0; attempt < 3; ++attempt) {
        doc = run_json({"--bench", "--bench-min-time=0.05", "--filter=" + path}, "params_" + path);
        const Json* fit = fit_of(doc, path);
        REQUIRE(fit);
        check_fit_follows_points(*fit);
        models += fit->at("model").as_string() + " ";
        if (fit->at("model").as_string() == model) break;
    }
    return doc;
}

// The tables of a run's output, in order: each one's title (in its top border, "" for none)
// and its text from the top border to the bottom one.
struct Table {
    std::string title, text;
};
std::vector<Table> tables_of(const std::string& out) {
    std::vector<Table> found;
    for (std::size_t at = out.find("╭"); at != std::string::npos; at = out.find("╭", at + 1)) {
        const std::size_t end = out.find("╰", at);
        Table t{"", out.substr(at, end == std::string::npos ? std::string::npos : end - at)};
        const std::string top = t.text.substr(0, t.text.find('\n'));
        if (const auto open = top.find("╼ "), close = top.find(" ╾");
            open != std::string::npos && close != std::string::npos)
            t.title = top.substr(open + std::string("╼ ").size(),
                                 close - open - std::string("╼ ").size());
        found.push_back(std::move(t));
    }
    return found;
}

}  // namespace

TEST_CASE(
    "e2e params: --group-by groups every row by its label: iter, whole-body and bench_case rows") {
    const std::string json = glint::test::temp_json_path("params_grouped");
    auto r =
        run_process({fixture_path("params"), "--bench", "--bench-min-time=0.2", "--group-by=size",
                     "--filter=linear,grid,lookup", "--quiet-environment", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const auto tables = tables_of(r.out);
    std::vector<std::string> titles;
    for (const auto& t : tables) titles.push_back(t.title);
    // Sizes sort as numbers (the iters' 64…32768 and the bench_cases' 10 and 1000 interleave, not
    // in the order they were measured); the rows without a size (grid's whole-body rows) in one
    // group of their own, last.
    CHECK(titles == std::vector<std::string>{"size: 10", "size: 64", "size: 512", "size: 1000",
                                             "size: 4096", "size: 32768", "size: —"});
    REQUIRE(tables.size() == 7);
    CHECK(contains(tables[1].text, "│ linear "));  // the grouped label leaves the name
    CHECK_FALSE(contains(tables[1].text, "[size="));
    CHECK(contains(tables[0].text, "│ lookup/find [op=find] "));
    CHECK(contains(tables[0].text, "│ lookup/count [op=count] "));
    CHECK(contains(tables[6].text, "│ grid [cols=10,rows=1] "));
    CHECK(contains(tables[6].text, "│ grid [cols=30,rows=2] "));
    for (const auto& t : tables) {  // the first column keeps its name in every table
        CAPTURE(t.title);
        CHECK(contains(t.text, "│ benchmark "));
        CHECK_FALSE(contains(t.text, "implementation"));
    }
    // JSON is not grouped: every row, in measurement order.
    const Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    CHECK(doc.at("rows").size() == 14);
    CHECK(doc.at("rows").as_array().front().at("name").as_string() == "linear");
}

TEST_CASE("e2e params: --group-by=list lists the keys of every row, parameters included") {
    auto r = run_process({fixture_path("params"), "--group-by=list"});
    CHECK(r.exit_code == 0);
    CHECK(r.out ==
          "size: 64, 512, 4096, 32768, 10, 1000\ncols: 10, 20, 30\nrows: 1, 2\nop: find, count\n");
    // A parameter is a key --group-by takes (before, only bench_case labels were).
    auto grouped = run_process({fixture_path("params"), "--bench", "--bench-min-time=0.1",
                                "--filter=grid", "--group-by=rows"});
    CHECK(grouped.exit_code == 0);
    CHECK(contains(grouped.out, "╼ rows: 1 ╾"));
    CHECK(contains(grouped.out, "╼ rows: 2 ╾"));
    CHECK(contains(grouped.out, "│ grid [cols=20] "));
}

TEST_CASE("e2e params: test mode runs every value, each line labelled") {
    auto r = run_process({fixture_path("params")});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "ok    linear [size=64]\n"));
    CHECK(contains(r.out, "ok    linear [size=32768]\n"));
    CHECK(contains(r.out, "ok    grid [cols=30,rows=2]\n"));
    CHECK(contains(r.out, "ok    lookup/count [op=count,size=1000]\n"));
    CHECK(contains(r.out, "18 passed, 0 failed"));  // 4 + 4 + 6 + 2 x 2
}

TEST_CASE("e2e params: one labelled row per value, for iter, whole-body and bench_case cases") {
    const Json doc =
        run_json({"--bench", "--bench-min-time=0.2", "--filter=linear,grid,lookup"}, "params_rows");
    std::vector<std::string> seen;
    for (const auto& row : doc.at("rows").as_array()) {
        std::string id = row.at("name").as_string();
        for (const auto& [k, v] : row.at("labels").as_object()) id += " " + k + "=" + v.as_string();
        seen.push_back(id);
    }
    const std::vector<std::string> expected = {
        "linear size=64",         "linear size=512",         "linear size=4096",
        "linear size=32768",      "grid cols=10 rows=1",     "grid cols=20 rows=1",
        "grid cols=30 rows=1",    "grid cols=10 rows=2",     "grid cols=20 rows=2",
        "grid cols=30 rows=2",    "find op=find size=10",    "count op=count size=10",
        "find op=find size=1000", "count op=count size=1000"};
    CHECK(seen == expected);
}

TEST_CASE("e2e params: an O(n) iter body over 4 sizes fits O(n), an O(1) one fits O(1)") {
    // The chain over 64..32768 elements reads O(n log n) in about 3 runs of 20 on this VM, quiet
    // or loaded: the fit must find O(n) in one of 3 runs (a fit that never picks O(n) fails all
    // three), and that run's fit is checked.
    std::string linear_models;
    const Json doc = fit_until("linear", "O(n)", linear_models);
    const Json* linear = fit_of(doc, "linear");
    REQUIRE(linear);
    INFO("models fitted: " << linear_models);
    CHECK(linear->at("parameter").as_string() == "size");
    CHECK(linear->at("points").size() == 4);
    CHECK(linear->at("model").as_string() == "O(n)");
    CHECK(linear->at("coefficientNs").as_number() > 0);
    CHECK(linear->at("models").at("O(n)").at("rms").as_number() <
          linear->at("models").at("O(n log n)").at("rms").as_number());
    // A body of about 1 ns moves by 2x between rows when a neighbour's load shifts on a shared
    // VM, which can make 4 rows look like a slope: the fit must find O(1) in one of 3 runs (a
    // fit that never picks O(1) fails all three).
    std::string models;
    const Json constant_doc = fit_until("constant", "O(1)", models);
    INFO("models fitted: " << models);
    CHECK(fit_of(constant_doc, "constant")->at("model").as_string() == "O(1)");
}

TEST_CASE("e2e params: the fit is printed under the tables") {
    auto r =
        run_process({fixture_path("params"), "--bench", "--bench-min-time=0.2", "--filter=linear"});
    REQUIRE(r.exit_code == 0);
    const auto table_end = r.out.rfind("╰");
    // A model, or "undecided" where a loaded machine left two laws within kComplexityMargin.
    auto line = r.out.find("complexity: linear ~ O(");
    if (line == std::string::npos) line = r.out.find("complexity: linear undecided: O(");
    REQUIRE(line != std::string::npos);
    CHECK(line > table_end);
    // The range fitted, in either line's words ("(size 64…32768, 4 points)", or "fit size
    // 64…32768 (4 points)" where undecided).
    const std::string fit_line = r.out.substr(line, r.out.find('\n', line) - line);
    INFO(fit_line);
    CHECK(contains(fit_line, "size 64…32768"));
    CHECK(contains(fit_line, "4 points)"));
}

TEST_CASE("e2e params: a bad range is refused in every mode before anything runs") {
    for (const std::vector<std::string>& mode :
         {std::vector<std::string>{}, {"--bench"}, {"--list"}}) {
        std::vector<std::string> args{fixture_path("bad_params")};
        args.insert(args.end(), mode.begin(), mode.end());
        auto r = run_process(args);
        CHECK(r.exit_code == 2);
        CHECK(r.err ==
              "glint: error: GLINT_BENCH(\"bad\"): glint::range(\"size\", 0, 1024, 2): lo "
              "must be at least 1\n");
        CHECK_FALSE(contains(r.out, "fine ran"));
    }
}
