// The HTML report: one row per case, one plot per row, the baseline overlaid, text escaped,
// unstable values marked with their reasons, axis labels at real samples.
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
    CHECK(count(page, "class=\"dot\"") == 8);  // 5 + 3 samples, each a dot
    CHECK(page.find("data-verdict=\"slower\"") != std::string::npos);
    // Extra markup (a flame graph) fills a full-width row beneath its row (2 + 2 columns).
    CHECK(
        count(
            page,
            "</tr>\n<tr class=\"extra\"><td colspan=\"4\"><svg class=\"flame\"></svg></td></tr>") ==
        1);
    CHECK(page.find("data-sort=\"10\"") != std::string::npos);
    // Nothing from outside: no URL but the SVG namespace, text escaped.
    CHECK(page.find("http") == page.find("http://www.w3.org/2000/svg"));
    CHECK(page.find("src=") == std::string::npos);
    CHECK(page.find("<script>\"") == std::string::npos);
    CHECK(page.find("&lt;script&gt;") != std::string::npos);
    CHECK(page.find("run &lt;1&gt;") != std::string::npos);
    CHECK(page.find("host: a &amp; b") != std::string::npos);
}

TEST_CASE(
    "html: an unstable value reads ~ with its reasons' codes beneath and their meaning on hover") {
    Report r = report();
    r.rows[0].cells[0].unstable = {"cpu-time", "spread"};
    r.rows[0].cells[0].unstable_title =
        "unstable: cpu-time (CPU/wall < 0.9), spread (MAD > 5% of median)";
    const std::string page = render_page(r);
    CHECK(count(page,
                "<td class=\"num unstable\" data-col=\"median\" data-sort=\"10\" "
                "title=\"unstable: cpu-time (CPU/wall &lt; 0.9), spread (MAD &gt; 5% of median)\">"
                "<span class=\"mark\">~</span>10.00ns<div class=\"why\">~ cpu,spread</div></td>") ==
          1);
    CHECK(count(page, "class=\"why\"") == 1);                       // the stable cells carry none
    CHECK(page.find("~: measured unstably") != std::string::npos);  // the legend says what ~ is
    // No tooltip given: the reasons themselves.
    r.rows[0].cells[0].unstable_title.clear();
    CHECK(render_page(r).find("title=\"unstable: cpu = cpu-time, spread\"") != std::string::npos);
    CHECK(render_page(report()).find("~: measured unstably") == std::string::npos);
}

TEST_CASE("html: the axis labels name the lowest and highest sample, never a padded edge") {
    // 11.15 to 12.4 ns: the labels read those two samples (and carry them raw), whatever the
    // margin drawn around them; the lanes carry their own extremes.
    const std::string svg =
        distribution_svg({{"baseline", "lane-base", {11.8, 12.4, 12.0}},
                          {"this run", "lane-new", {11.15, 11.3, 11.2, 11.25}}});
    CHECK(count(svg, "<text class=\"axis lo\" data-ns=\"11.15\"") == 1);
    CHECK(count(svg, "<text class=\"axis hi\" text-anchor=\"end\" data-ns=\"12.4\"") == 1);
    CHECK(svg.find(">11.15ns</text>") != std::string::npos);  // resolved to a 50th of the span
    CHECK(svg.find(">12.40ns</text>") != std::string::npos);
    CHECK(svg.find("class=\"lane-base\" data-min=\"11.8\" data-max=\"12.4\"") != std::string::npos);
    CHECK(svg.find("class=\"lane-new\" data-min=\"11.15\" data-max=\"11.3\"") != std::string::npos);
    CHECK(svg.find("min 11.15ns, max 11.30ns") != std::string::npos);  // the hover: same figures
    CHECK(svg.find("width=\"480.0\"") != std::string::npos);
    // Every label inside the drawing.
    for (auto at = svg.find("<text"); at != std::string::npos; at = svg.find("<text", at + 1)) {
        const auto x = std::stod(svg.substr(svg.find(" x=\"", at) + 4));
        CHECK(x >= 0);
        CHECK(x <= kPlotWidth);
    }
    // One value: both labels name it, either side of its tick.
    const std::string flat = distribution_svg({{"this run", "lane-new", {5, 5, 5}}});
    CHECK(count(flat, ">5.00ns</text>") == 2);
    // Times choose their unit as the table does, decimals to resolve the span.
    CHECK(plot_time(2163, 2210, 50) == "2.163µs");
    CHECK(plot_time(2163, 2210, 0) == "2.2µs");
    CHECK(plot_time(999.999, 999.999, 0) == "1.0µs");
}

TEST_CASE("html: the plot's axis spans the whiskers, strays are drawn at its edge") {
    std::vector<double> samples;
    for (int i = 0; i < 200; ++i) samples.push_back(100 + i % 10);
    samples.push_back(100000);  // one stray far beyond
    const std::string svg = distribution_svg({{"this run", "lane-new", samples}});
    CHECK(count(svg, "<path class=\"beyond\"") == 1);
    CHECK(svg.find("1 beyond the axis") != std::string::npos);
    CHECK(count(svg, "class=\"dot\"") ==
          kMaxDots - 1);  // thinned to kMaxDots, the stray a triangle
    // The axis: the lowest and highest samples within reach of the whiskers (100, 109), not
    // 100 µs; the right label says what lies beyond, at its own scale.
    CHECK(svg.find(">100.00ns</text>") != std::string::npos);
    CHECK(svg.find(">109.00ns · 1 up to 100.0µs ▸</text>") != std::string::npos);
    // Deterministic: the same samples draw the same picture.
    CHECK(svg == distribution_svg({{"this run", "lane-new", samples}}));
    // A long tail (10% of the samples 10 to 20 times slower, a busy machine's preemptions) stays
    // off the axis too: the box keeps its width instead of shrinking into the left edge.
    std::vector<double> tailed;
    for (int i = 0; i < 200; ++i) tailed.push_back(100 + i % 10);
    for (int i = 0; i < 25; ++i) tailed.push_back(1000 + 40 * i);
    const std::string long_tail = distribution_svg({{"this run", "lane-new", tailed}});
    CHECK(long_tail.find(">109.00ns · 25 up to 2.0µs ▸</text>") != std::string::npos);
    CHECK(long_tail.find("25 beyond the axis") != std::string::npos);
    // Mild strays (within the whiskers' span of them) widen the axis instead.
    std::vector<double> mild = samples;
    mild.back() = 115;
    CHECK(distribution_svg({{"this run", "lane-new", mild}}).find(">115.00ns</text>") !=
          std::string::npos);
    // Strays below: the left label, at the edge.
    std::vector<double> low = samples;
    low.back() = 1;
    CHECK(distribution_svg({{"this run", "lane-new", low}})
              .find(">◂ 1 down to 1.00ns · 100.00ns</text>") != std::string::npos);
}

TEST_CASE("html: lanes whose extremes differ past the sixth digit carry them exactly") {
    // 530.7880 and 530.7877 ns (per-call samples of one clock step): JSON's 6 significant
    // digits write both as 530.788, and a reader could not tell which lane the label names.
    const std::string svg =
        distribution_svg({{"baseline", "lane-base", {530.788, 530.788, 531.5}},
                          {"this run", "lane-new", {530.7877, 530.7877, 531.5}}});
    CHECK(svg.find("class=\"lane-base\" data-min=\"530.788\"") != std::string::npos);
    CHECK(svg.find("class=\"lane-new\" data-min=\"530.7877\"") != std::string::npos);
    CHECK(count(svg, "<text class=\"axis lo\" data-ns=\"530.7877\"") == 1);
}
