// glint-compare's HTML report (engine/compare/compare_html.hpp): the title names each side once
// (a side of several runs by its count and first and last file), the files listed in a note;
// a median a side measured unstably carries "~", its reasons and their meaning.
#include <doctest/doctest.h>

#include <string>

#include "engine/compare/compare_html.hpp"

using namespace glint::engine;

namespace {

// One run of one row "a" (median 10 + shift), "unstable" as given, the reasons' meanings in meta.
RunDocument run(const std::string& path, double shift, const std::string& unstable) {
    std::string error;
    auto d = parse_document(
        R"({"schema": 2, "meta": {"stability": {"reasons": {"cpu-time": "CPU/wall < 0.9",
        "spread": "MAD > 5% of median"}}}, "rows": [{"name": "a", "registration": "a", "labels": {},
        "medianNs": )" +
            std::to_string(10 + shift) + R"(, "samplesNs": [10, 11], "unstable": )" + unstable +
            "}]}",
        path, error);
    REQUIRE_MESSAGE(d, error);
    return *d;
}

std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("compare html: the title names each side once, a side of runs by count, first and last") {
    const RunDocument base =
        merge_runs({run("/tmp/x/a1.json", 0, "[]"), run("/tmp/x/a2.json", 0, "[]"),
                    run("/tmp/x/a3.json", 0, "[]"), run("/tmp/x/a4.json", 0, "[]")});
    const RunDocument next = run("/tmp/y/new.json", 1, "[]");
    const Comparison c = compare_documents({&base, &next}, CompareSettings{}, std::nullopt);
    const report::html::Report r = comparison_html(c, CompareReportOptions{});
    CHECK(r.title == "glint-compare: new.json vs base (4 runs: a1.json … a4.json)");  // file names
    CHECK(count(r.title, "a2.json") == 0);
    REQUIRE_FALSE(r.notes.empty());
    CHECK(r.notes[0] ==
          "base: 4 runs: /tmp/x/a1.json, /tmp/x/a2.json, /tmp/x/a3.json, /tmp/x/a4.json");
    REQUIRE(r.notes.size() >=
            3);  // the paths in full; the summary: the sides by name, not every file again
    CHECK(r.notes[1] == "new: /tmp/y/new.json");
    CHECK(r.notes[2].rfind("new.json vs base (4 runs): ", 0) == 0);
    CHECK(r.base_label == "base (4 runs)");
    CHECK(r.sample_label == "new.json");
    CHECK(side_label(next, "new") == "new.json");
    const RunDocument two = merge_runs({run("b1.json", 0, "[]"), run("b2.json", 0, "[]")});
    CHECK(side_label(two, "new") == "new (2 runs: b1.json, b2.json)");
}

TEST_CASE("compare html: a median measured unstably reads ~ with its reasons and their meaning") {
    const RunDocument base =
        merge_runs({run("a1.json", 0, R"(["cpu-time"])"), run("a2.json", 0, "[]"),
                    run("a3.json", 0, R"(["spread", "cpu-time"])")});
    const RunDocument next = run("new.json", 1, "[]");
    CHECK(base.rows[0].unstable == std::vector<std::string>{"cpu-time", "spread"});
    CHECK(base.rows[0].unstable_runs == 2);
    const Comparison c = compare_documents({&base, &next}, CompareSettings{}, std::nullopt);
    const report::html::Report r = comparison_html(c, CompareReportOptions{});
    REQUIRE(r.rows.size() == 1);
    const auto& base_cell = r.rows[0].cells.at(0);  // base, new, change, interval, verdict, reps
    CHECK(base_cell.unstable == std::vector<std::string>{"cpu-time", "spread"});
    CHECK(base_cell.unstable_title ==
          "unstable in 2 of 3 runs: cpu = cpu-time (CPU/wall < 0.9), spread (MAD > 5% of median)");
    CHECK(r.rows[0].cells.at(1).unstable.empty());  // the new side was stable
    const std::string page = report::html::render_page(r);
    CHECK(count(page, "<div class=\"why\">~ cpu,spread</div>") == 1);  // the table's codes
    // One run: no count of runs.
    const RunDocument single = run("one.json", 0, R"(["spread"])");
    report::html::Cell cell;
    mark_unstable(cell, single.rows[0], single);
    CHECK(cell.unstable_title == "unstable: spread (MAD > 5% of median)");
}
