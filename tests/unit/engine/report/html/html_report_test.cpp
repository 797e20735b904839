// The HTML report: one row per case, one plot per row, the baseline overlaid, text escaped.
#include <doctest/doctest.h>

#include <string>

#include "engine/report/html/html_report.hpp"
#include "engine/report/html/svg_plot.hpp"

using namespace glint::engine::report::html;

namespace {

std::size_t count(const std::string& text, const std::string& needle) {
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

Report report() {
    Report r;
    r.title = "run <1>";
    r.notes = {"host: a & b"};
    r.columns = {{"median", "median/iter", true}, {"verdict", "verdict", false}};
    Row a;
    a.name = "fast/impl";
    a.cells = {{"10.00ns", 10, true}, {"slower", 4, true}};
    a.samples_ns = {9, 10, 11, 10, 10.5};
    a.base_samples_ns = {7, 8, 7.5};
    a.verdict = "slower";
    a.extra_html = "<svg class=\"flame\"></svg>";
    Row b;
    b.name = "<script>";
    b.cells = {{"—", 0, false}, {"", 0, false}};
    r.rows = {a, b};
    return r;
}

}  // namespace

TEST_CASE("html: every row holds exactly one distribution plot, the baseline gets its own lane") {
    const std::string page = render_page(report());
    CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(count(page, "<tr class=\"row\"") == 2);
    CHECK(count(page, "<svg class=\"dist\"") == 2);
    CHECK(count(page, "class=\"lane-base\"") == 1);
    CHECK(count(page, "class=\"lane-new\"") == 1);  // the second row has no samples
    CHECK(count(page, "no samples") == 1);
    CHECK(count(page, "class=\"dot\"") == 8);        // 5 + 3 samples, each a dot
    CHECK(page.find("data-verdict=\"slower\"") != std::string::npos);
    // Extra markup (a flame graph) sits beneath the row's plot, in the same cell.
    CHECK(count(page, "</svg><div class=\"extra\"><svg class=\"flame\"></svg></div></td>") == 1);
    CHECK(page.find("data-sort=\"10\"") != std::string::npos);
    // Nothing from outside: no URL but the SVG namespace, text escaped.
    CHECK(page.find("http") == page.find("http://www.w3.org/2000/svg"));
    CHECK(page.find("src=") == std::string::npos);
    CHECK(page.find("<script>\"") == std::string::npos);
    CHECK(page.find("&lt;script&gt;") != std::string::npos);
    CHECK(page.find("run &lt;1&gt;") != std::string::npos);
    CHECK(page.find("host: a &amp; b") != std::string::npos);
}

TEST_CASE("html: the plot's axis spans the whiskers, strays are drawn at its edge") {
    std::vector<double> samples;
    for (int i = 0; i < 200; ++i) samples.push_back(100 + i % 10);
    samples.push_back(100000);  // one stray far beyond
    const std::string svg = distribution_svg({{"this run", "lane-new", samples}});
    CHECK(count(svg, "<path class=\"beyond\"") == 1);
    CHECK(svg.find("1 beyond the axis") != std::string::npos);
    CHECK(count(svg, "class=\"dot\"") == kMaxDots - 1);  // thinned to kMaxDots, the stray a triangle
    // The axis: the whiskers (100, 109) padded by 5% of their span, not 100 µs.
    CHECK(svg.find(">99.55ns</text>") != std::string::npos);
    CHECK(svg.find(">109.45ns</text>") != std::string::npos);
    // Deterministic: the same samples draw the same picture.
    CHECK(svg == distribution_svg({{"this run", "lane-new", samples}}));
    // A long tail (10% of the samples 10 to 20 times slower, a busy machine's preemptions) stays
    // off the axis too: the box keeps its width instead of shrinking into the left edge.
    std::vector<double> tailed;
    for (int i = 0; i < 200; ++i) tailed.push_back(100 + i % 10);
    for (int i = 0; i < 25; ++i) tailed.push_back(1000 + 40 * i);
    const std::string long_tail = distribution_svg({{"this run", "lane-new", tailed}});
    CHECK(long_tail.find(">109.45ns</text>") != std::string::npos);
    CHECK(long_tail.find("25 beyond the axis") != std::string::npos);
}
