// Documents compared row by row: matching by identity, the summary, the gate, the rendering.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/compare/compare.hpp"
#include "engine/compare/compare_report.hpp"

using namespace glint::engine;

namespace {

DocumentRow row(std::string registration, std::string name, std::vector<double> reps,
                Labels labels = {}) {
    DocumentRow r;
    r.registration = std::move(registration);
    r.name = std::move(name);
    r.labels = std::move(labels);
    r.repetition_medians_ns = reps;
    std::vector<double> sorted = reps;
    std::sort(sorted.begin(), sorted.end());
    r.median_ns = sorted[sorted.size() / 2];
    r.samples_ns = reps;
    return r;
}

std::vector<double> around(double v) { return {v, v * 1.01, v * 0.99, v * 1.005, v * 0.995}; }

RunDocument doc(std::string path, std::vector<DocumentRow> rows) {
    RunDocument d;
    d.path = std::move(path);
    d.rows = std::move(rows);
    return d;
}

}  // namespace

TEST_CASE("compare: rows match by registration, name and labels") {
    // Two registrations each have a case "impl": fast's is 10 ns, slow's 50 ns, in both runs.
    const RunDocument base =
        doc("base.json", {row("fast", "impl", around(10)), row("slow", "impl", around(50)),
                          row("m", "m", around(7), {{"n", "1"}})});
    const RunDocument next =
        doc("new.json", {row("slow", "impl", around(50)), row("fast", "impl", around(10)),
                         row("m", "m", around(7), {{"n", "2"}})});
    const Comparison c = compare_documents({&base, &next}, CompareSettings{}, std::nullopt);
    REQUIRE(c.rows.size() == 4);
    CHECK(c.rows[0].identity == "fast/impl");
    REQUIRE(c.rows[0].changes[0].change);
    CHECK(c.rows[0].changes[0].change->ratio == doctest::Approx(1.0));  // never fast against slow
    CHECK(c.rows[0].changes[0].change->verdict == Verdict::same);
    CHECK(c.rows[1].changes[0].change->ratio == doctest::Approx(1.0));
    // Labels are identity too: n=1 only in base, n=2 only in new.
    CHECK(c.rows[2].identity == "m [n=1]");
    CHECK(c.rows[2].changes[0].reason == "only in base");
    CHECK(c.rows[3].identity == "m [n=2]");
    CHECK(c.rows[3].base == nullptr);
    CHECK(c.rows[3].changes[0].reason == "new");
    CHECK(c.summaries[0].same == 2);
    CHECK(c.summaries[0].unavailable == 2);
    CHECK(c.notes.empty());
}

TEST_CASE("compare: a document without registrations matches by name and labels, with a note") {
    RunDocument base = doc("old.json", {row("", "impl", around(10))});
    base.has_registrations = false;
    const RunDocument next = doc("new.json", {row("fast", "impl", around(11))});
    const Comparison c = compare_documents({&base, &next}, CompareSettings{}, std::nullopt);
    REQUIRE(c.rows.size() == 1);
    REQUIRE(c.rows[0].changes[0].change);
    CHECK(c.rows[0].changes[0].change->ratio == doctest::Approx(1.1));
    REQUIRE(c.notes.size() == 1);
    CHECK(c.notes[0] == "'old.json' predates row registrations: rows matched by name and labels");
    // Rows told apart by their registrations alone cannot all be matched: the note says so.
    const RunDocument two =
        doc("two.json", {row("fast", "impl", around(11)), row("slow", "impl", around(50))});
    const Comparison d = compare_documents({&base, &two}, CompareSettings{}, std::nullopt);
    REQUIRE(d.rows.size() == 1);
    CHECK(d.rows[0].changes[0].change->ratio == doctest::Approx(1.1));
    REQUIRE(d.notes.size() == 2);
    CHECK(d.notes[1] ==
          "'two.json': two rows are slow/impl once registrations are set aside: only the first is "
          "compared");
}

TEST_CASE("compare: error and unresolved rows are not compared, the summary and the gate") {
    DocumentRow broken = row("b", "b", {1});
    broken.error = "boom";
    DocumentRow unresolved = row("u", "u", {1});
    unresolved.resolved = false;
    const RunDocument base =
        doc("base.json", {row("a", "a", around(100)), row("s", "s", around(100)), broken,
                          unresolved, row("f", "f", around(100))});
    const RunDocument next =
        doc("new.json", {row("a", "a", around(130)), row("s", "s", around(100)), row("b", "b", {1}),
                         row("u", "u", {1}), row("f", "f", around(50))});
    const Comparison gated = compare_documents({&base, &next}, CompareSettings{}, 0.10);
    CHECK(gated.rows[2].changes[0].reason == "error");
    CHECK(gated.rows[3].changes[0].reason == "unresolved");
    const SeriesSummary& s = gated.summaries[0];
    CHECK(s.slower == 1);
    CHECK(s.faster == 1);
    CHECK(s.same == 1);
    CHECK(s.unavailable == 2);
    CHECK(s.compared == 3);
    CHECK(s.geomean_ratio == doctest::Approx(std::cbrt(1.3 * 1.0 * 0.5)));
    CHECK(gated.gate_failed());
    CHECK(s.slower_beyond_gate == std::vector<std::string>{"a"});
    CHECK_FALSE(compare_documents({&base, &next}, CompareSettings{}, 0.40).gate_failed());
    CHECK_FALSE(compare_documents({&base, &next}, CompareSettings{}, std::nullopt).gate_failed());

    CompareReportOptions options;
    options.gate = 0.10;
    const std::string text = render_comparison(gated, options, CompareFormat::box);
    CHECK(text.find("│ a         │") != std::string::npos);
    CHECK(text.find("+30.00%") != std::string::npos);
    CHECK(text.find("slower") != std::string::npos);
    CHECK(text.find(
              "new.json vs base.json: geometric mean -13.38% over 3 rows · 1 faster · 1 slower · "
              "1 same · 0 noisy · 2 not compared") != std::string::npos);
    CHECK(text.find(
              "--fail-if-slower=10.0%: FAILED: 1 row(s) slower beyond 10.0% with confidence: a") !=
          std::string::npos);
    // A filtered run leaves the baseline's unmeasured rows out of its table, and counts them.
    const RunDocument partial = doc("this run", {row("a", "a", around(100))});
    CompareReportOptions hiding;
    hiding.hide_only_in_base = true;
    const std::string filtered =
        render_comparison(compare_documents({&base, &partial}, CompareSettings{}, std::nullopt),
                          hiding, CompareFormat::box);
    CHECK(filtered.find("│ s ") == std::string::npos);
    CHECK(filtered.find("note: 4 row(s) of base.json not measured here (left out of the table)") !=
          std::string::npos);
    CHECK(text.find("only in base") == std::string::npos);
    const std::string md = render_comparison(gated, options, CompareFormat::md);
    CHECK(md.find("| benchmark | base | new | HL change | 95% CI, reps | gate | reps |") == 0);
    CHECK(md.find("| a | 100.00ns | 130.00ns | +30.00% |") != std::string::npos);
    const Json j = comparison_json(gated, options);
    CHECK(j.at("gate").at("failed") == Json(true));
    CHECK(j.at("rows").as_array()[0].at("changes").as_array()[0].at("verdict") == Json("slower"));
    CHECK(j.at("summaries").as_array()[0].at("slower") == Json(1));
}

TEST_CASE("compare: a series compares every later document with the first") {
    const RunDocument a = doc("a.json", {row("x", "x", around(100))});
    const RunDocument b = doc("b.json", {row("x", "x", around(100))});
    const RunDocument c = doc("c.json", {row("x", "x", around(200))});
    const Comparison s = compare_documents({&a, &b, &c}, CompareSettings{}, std::nullopt);
    REQUIRE(s.summaries.size() == 2);
    CHECK(s.rows[0].changes[0].change->verdict == Verdict::same);
    CHECK(s.rows[0].changes[1].change->verdict == Verdict::slower);
    const std::string text = render_comparison(s, CompareReportOptions{}, CompareFormat::box);
    CHECK(text.find("verdict #3") != std::string::npos);
    CHECK(text.find("c.json vs a.json") != std::string::npos);
    CHECK(text.find("5/5/5") != std::string::npos);
}
