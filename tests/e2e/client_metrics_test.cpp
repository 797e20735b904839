// End to end: client metrics that follow a parameter (fixtures client_metrics.cpp,
// bad_metric_param.cpp). Every row's rate is its own amount over its own median, in the JSON
// (to its printed precision), the box table, markdown and CSV (to theirs); a row without the
// metric shows — / null; an iter's metric replaces its registration's of the same column; a
// parameter the registration lacks is refused before the run (a registration's metric) or
// fails its row (an iter's). No timed assertion: every check relates figures of one run.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/platform.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::TempDir;
using nlohmann::json;

namespace {

using Run = glint::test::DocumentRun<json>;

// The fixture under --bench with `args`, its JSON document read back.
Run bench(std::vector<std::string> args, const TempDir& dir) {
    std::vector<std::string> argv{fixture_path("client_metrics"), "--bench",
                                  "--bench-min-time=0.05", "--quiet-environment"};
    argv.insert(argv.end(), args.begin(), args.end());
    Run run = glint::test::run_with_document<json>(argv, dir.file("run.json"));
    INFO(run.result.err);
    REQUIRE(run.result.exit_code == 0);
    REQUIRE(run.doc.is_object());
    return run;
}

const json* row_named(const json& doc, const std::string& display) {
    for (const auto& row : doc["rows"])
        if (row["displayName"] == display) return &row;
    return nullptr;
}

double label_value(const json& row, const std::string& key) {
    return std::stod(row["labels"][key].get<std::string>());
}

// amount per iteration over the row's median, as the JSON row states both (6 digits printed).
void check_rate(const json& row, const std::string& column, double amount) {
    INFO(row["displayName"].get<std::string>() << " " << column);
    const json& value = row["metrics"][column];
    if (row.value("medianResolved", true) == false) {  // a per-call median under the bracket
        CHECK(value.is_null());
        return;
    }
    REQUIRE(value.is_number());
    const double expected = amount / (row["medianNs"].get<double>() * 1e-9);
    CHECK(value.get<double>() == doctest::Approx(expected).epsilon(2e-5));
}

// The cells of a table row, split at the separator, trimmed ("│" box, "|" markdown).
std::vector<std::string> cells_of(const std::string& line, const std::string& separator) {
    std::vector<std::string> cells;
    std::size_t at = line.find(separator);
    while (at != std::string::npos) {
        const std::size_t next = line.find(separator, at + separator.size());
        if (next == std::string::npos) break;
        std::string cell = line.substr(at + separator.size(), next - at - separator.size());
        cell.erase(0, cell.find_first_not_of(' '));
        cell.erase(cell.find_last_not_of(' ') + 1);
        cells.push_back(cell);
        at = next;
    }
    return cells;
}

// Every row's cells by its name cell, under the header above it (a table per header).
std::map<std::string, std::map<std::string, std::string>> table_cells(
    const std::string& out, const std::string& separator) {
    std::map<std::string, std::map<std::string, std::string>> rows;
    std::vector<std::string> header;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        const auto cells = cells_of(line, separator);
        if (cells.empty()) continue;
        if (cells[0] == "benchmark") header = cells;
        else if (cells.size() == header.size())
            for (std::size_t i = 1; i < cells.size(); ++i) rows[cells[0]][header[i]] = cells[i];
    }
    return rows;
}

// "2.20G", "927.02M", "8.00" as a number (NaN for "—").
double si_value(const std::string& text) {
    if (text == "—" || text.empty()) return NAN;
    double scale = 1;
    switch (text.back()) {
        case 'k':
            scale = 1e3;
            break;
        case 'M':
            scale = 1e6;
            break;
        case 'G':
            scale = 1e9;
            break;
        case 'T':
            scale = 1e12;
            break;
        default:
            break;
    }
    return std::stod(text) * scale;
}

// A table's B/s cell of each hash/fnv1a and hash/whole row is its JSON value, to the table's
// two decimals; "plain" shows —.
void check_table(const std::string& out, const std::string& separator, const json& doc,
                 bool escaped) {
    const auto rows = table_cells(out, separator);
    for (const char* reg : {"hash/fnv1a", "hash/whole"})
        for (int len : {16, 256, 4096}) {
            const std::string name = std::string(reg) + " [len=" + std::to_string(len) + "]";
            const std::string shown =
                escaped ? std::string(reg) + " \\[len=" + std::to_string(len) + "\\]" : name;
            INFO(shown);
            REQUIRE(rows.count(shown) == 1);
            const double json_value = (*row_named(doc, name))["metrics"]["B/s"].get<double>();
            CHECK(si_value(rows.at(shown).at("B/s")) == doctest::Approx(json_value).epsilon(0.006));
        }
    REQUIRE(rows.count("plain") == 1);
    CHECK(rows.at("plain").at("B/s") == "—");
}

}  // namespace

TEST_CASE(
    "e2e client metrics: each row's B/s is its own amount over its own median, JSON and table") {
    TempDir dir("glint_e2e_client_metrics");
    const Run run = bench({"--filter=plain,hash/*"}, dir);
    std::set<double> lens;
    for (const char* reg : {"hash/fnv1a", "hash/whole"})
        for (int len : {16, 256, 4096}) {
            const json* row =
                row_named(run.doc, std::string(reg) + " [len=" + std::to_string(len) + "]");
            REQUIRE(row != nullptr);
            check_rate(*row, "B/s", label_value(*row, "len"));
            lens.insert(label_value(*row, "len"));
        }
    CHECK(lens == std::set<double>{16, 256, 4096});
    CHECK(
        (*row_named(run.doc, "plain"))["metrics"]["B/s"].is_null());  // not measured: null, never 0
    check_table(run.result.out, "│", run.doc, false);
}

TEST_CASE("e2e client metrics: an iter's metric replaces its registration's of the same column") {
    TempDir dir("glint_e2e_client_metrics");
    const Run run =
        bench({"--filter=hash/both", "--sort-by=-words"}, dir);  // a column only its iter declares
    for (int len : {64, 1024}) {
        const json* row = row_named(run.doc, "hash/both [len=" + std::to_string(len) + "]");
        REQUIRE(row != nullptr);
        check_rate(*row, "B/s", len);   // the iter's amount, not the registration's 1
        check_rate(*row, "call/s", 1);  // the registration's, kept
        CHECK((*row)["metrics"]["words"] == len / 8);
    }
    std::vector<std::string> columns;
    for (const auto& c : run.doc["columns"]) columns.push_back(c["name"]);
    CHECK(columns == std::vector<std::string>{"B/s", "call/s", "words"});
}

TEST_CASE("e2e client metrics: iter_batched and bench_case rows carry their parameter's amounts") {
    TempDir dir("glint_e2e_client_metrics");
    const Run run = bench({"--filter=sum/batched,copy"}, dir);
    for (int n : {8, 512})
        check_rate(*row_named(run.doc, "sum/batched [n=" + std::to_string(n) + "]"), "elem/s", n);
    for (const char* name : {"copy/memcpy", "copy/fill"})
        for (int len : {65536, 1 << 20}) {
            const json* row =
                row_named(run.doc, std::string(name) + " [len=" + std::to_string(len) + "]");
            REQUIRE(row != nullptr);
            check_rate(*row, "B/s", len);
        }
}

TEST_CASE("e2e client metrics: markdown and CSV rows carry each row's own value") {
    TempDir dir("glint_e2e_client_metrics");
    const Run md = bench({"--filter=plain,hash/fnv1a,hash/whole", "--bench-format=md"}, dir);
    check_table(md.result.out, "|", md.doc, true);
    const Run csv = bench({"--filter=plain,hash/fnv1a", "--bench-format=csv"}, dir);
    std::istringstream lines(csv.result.out);
    int checked = 0;
    std::vector<std::string> header;  // the table's columns, the parameter len's among them
    const auto column = [&](const std::string& name) {
        const auto it = std::find(header.begin(), header.end(), name);
        REQUIRE(it != header.end());
        return static_cast<std::size_t>(it - header.begin());
    };
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> f;
        std::stringstream fields(line);
        for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
        if (line.rfind("benchmark,", 0) == 0) header = f;
        if (line.rfind("hash/fnv1a [len=", 0) != 0) continue;
        REQUIRE(f.size() > column("B/s"));  // (getline drops the empty last fields)
        const double len = std::stod(line.substr(16));
        CHECK(std::stod(f[column("len")]) == len);  // one column per parameter
        CHECK(std::stod(f[column("B/s")]) ==
              doctest::Approx(len / (std::stod(f[column("median_ns")]) * 1e-9)).epsilon(2e-5));
        ++checked;
    }
    CHECK(checked == 3);
    CHECK(contains(csv.result.out, "\nplain,plain,"));
}

TEST_CASE(
    "e2e client metrics: under --isolate, with a baseline and in HTML, rows keep their own "
    "values") {
    TempDir dir("glint_e2e_client_metrics");
    std::vector<std::string> args{"--filter=plain,hash/fnv1a"};
    if (glint::test::kLinux) args.push_back("--isolate");  // child processes: the Linux back end's
    const Run base = bench(args, dir);
    for (int len : {16, 256, 4096})
        check_rate(*row_named(base.doc, "hash/fnv1a [len=" + std::to_string(len) + "]"), "B/s",
                   len);
    const std::string base_path = dir.file("base.json");
    std::rename(dir.file("run.json").c_str(), base_path.c_str());
    const Run run = bench({"--filter=plain,hash/fnv1a", "--bench-baseline=" + base_path,
                           "--bench-html=" + dir.file("run.html")},
                          dir);
    const std::string html = read_file(dir.file("run.html"));
    // glint-compare's report of the two documents: each row's value of the newer one.
    const auto compared = run_process({glint::test::compare_path(), base_path, dir.file("run.json"),
                                       "--html=" + dir.file("compare.html")});
    REQUIRE(compared.exit_code == 0);
    const std::string compare_html = read_file(dir.file("compare.html"));
    const auto table = table_cells(run.result.out, "│");
    for (int len : {16, 256, 4096}) {
        const std::string name = "hash/fnv1a [len=" + std::to_string(len) + "]";
        const json& row = *row_named(run.doc, name);
        check_rate(row, "B/s", len);
        CHECK(row["metrics"]["base-change"].is_number());  // matched its own baseline row
        CHECK(contains(html, ">" + table.at(name).at("B/s") + "<"));
        // glint-compare formats the document's value, which JSON keeps to 6 significant digits:
        // rounded twice, its last printed digit may differ by one from the table's.
        const std::string shown = table.at(name).at("B/s");
        bool near = false;
        for (double step : {-0.01, 0.0, 0.01}) {
            char cell[32];
            const std::string suffix = shown.substr(shown.find_last_of("0123456789") + 1);  // "M"
            std::snprintf(cell, sizeof cell, ">%.2f%s<", std::stod(shown) + step, suffix.c_str());
            near = near || contains(compare_html, cell);
        }
        CHECK_MESSAGE(near, "glint-compare's HTML lacks " << shown << " (to its last digit)");
    }
}

TEST_CASE(
    "e2e client metrics: a registration's metric naming no parameter of it is refused before any "
    "run") {
    for (const std::vector<std::string>& mode :
         {std::vector<std::string>{}, {"--bench"}, {"--list"}}) {
        std::vector<std::string> args{fixture_path("bad_metric_param")};
        args.insert(args.end(), mode.begin(), mode.end());
        const auto r = run_process(args);
        CHECK(r.exit_code == 2);
        CHECK(
            r.err ==
            "glint: error: GLINT_BENCH(\"copy\"): glint::Metric \"B\" scales by parameter 'size', "
            "which this registration does not declare (its parameters: len); name a declared one, "
            "or add glint::range(\"size\", lo, hi) or glint::values(\"size\", {...})\n");
        CHECK_FALSE(contains(r.out, "fine ran"));
    }
}

TEST_CASE("e2e client metrics: an iter's metric naming no parameter fails its row, in both modes") {
    TempDir dir("glint_e2e_client_metrics");
    const std::string path = dir.file("run.json");
    const auto r = run_process({fixture_path("client_metrics"), "--bench", "--bench-min-time=0.05",
                                "--filter=broken*,plain", "--bench-json=" + path});
    CHECK(r.exit_code == 1);
    const std::string problem =
        "GLINT_BENCH(\"broken/iter_param\"): glint::Metric \"B\" scales by parameter "
        "'size', which this registration does not declare (its parameters: len)";
    CHECK(contains(r.err, "glint: broken/iter_param [len=16]: " + problem));
    const json doc = json::parse(read_file(path));
    const json* row = row_named(doc, "broken/iter_param [len=16]");
    REQUIRE(row != nullptr);
    CHECK(contains((*row)["error"].get<std::string>(), problem));
    CHECK((*row)["metrics"]["B/s"].is_null());
    CHECK(row_named(doc, "plain")->value("error", "") == "");
    const auto plain = run_process({fixture_path("client_metrics"), "--filter=broken*"});
    CHECK(plain.exit_code == 1);
    CHECK(contains(plain.out, "FAIL  broken/iter_param [len=16]: " + problem));
}

TEST_CASE("e2e client metrics: --group-by tables show the columns their rows' iters declared") {
    TempDir dir("glint_e2e_client_metrics");
    const Run run = bench({"--filter=plain,hash/both", "--group-by=len"}, dir);
    std::vector<std::string> header;
    std::set<std::string> words;
    std::istringstream lines(run.result.out);
    for (std::string line; std::getline(lines, line);) {
        const auto cells = cells_of(line, "│");
        if (cells.empty()) continue;
        if (cells[0] == "benchmark") header = cells;
        if (cells[0] != "hash/both") continue;  // its group's title holds the len
        INFO(line);
        REQUIRE(cells.size() == header.size());
        for (const char* column : {"B/s", "call/s", "words"}) {
            const auto at = std::find(header.begin(), header.end(), column);
            REQUIRE(at != header.end());  // "words" only the iter declares: its column is there
            if (std::string(column) == "words") words.insert(cells[at - header.begin()]);
        }
    }
    CHECK(words == std::set<std::string>{"8.00", "128.00"});
}
