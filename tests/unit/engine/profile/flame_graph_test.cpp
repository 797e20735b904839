// The SVG flame graph (engine/profile/flame_graph.hpp): one bar per stack prefix, widths in
// proportion to samples, callees beneath their callers, names escaped, nothing for no samples.
#include <doctest/doctest.h>

#include <regex>

#include "engine/profile/flame_graph.hpp"

using namespace glint::engine::profile;

namespace {

struct Bar {
    std::string title;
    double x, y, width;
};

std::vector<Bar> bars(const std::string& svg) {
    static const std::regex bar(
        R"re(<title>([^<]*)</title><rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)")re");
    std::vector<Bar> out;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator();
         ++it)
        out.push_back({(*it)[1], std::stod((*it)[2]), std::stod((*it)[3]), std::stod((*it)[4])});
    return out;
}

const Bar* find(const std::vector<Bar>& bs, const std::string& prefix) {
    for (const auto& b : bs)
        if (b.title.rfind(prefix, 0) == 0) return &b;
    return nullptr;
}

}  // namespace

TEST_CASE("flame graph: bars as wide as their samples, callees beneath and inside callers") {
    const std::string svg = flame_graph_svg(
        {{"main;work_three", 75}, {"main;work_one", 20}, {"main", 5}},
        FlameStyle{.width_px = 1000, .bar_px = 16, .min_width_px = 0.5, .root = "case"});
    REQUIRE(svg.rfind("<svg class=\"flame\"", 0) == 0);
    CHECK(svg.find("</svg>") != std::string::npos);
    const auto bs = bars(svg);
    REQUIRE(bs.size() == 4);  // case, main, work_one, work_three
    const Bar* root = find(bs, "case (100 samples, 100.0%)");
    const Bar* main = find(bs, "main (100 samples");
    const Bar* three = find(bs, "work_three (75 samples, 75.0%)");
    const Bar* one = find(bs, "work_one (20 samples, 20.0%)");
    REQUIRE((root && main && three && one));
    CHECK(root->width == doctest::Approx(1000));
    CHECK(three->width == doctest::Approx(750));
    CHECK(one->width == doctest::Approx(200));
    CHECK(root->y == 0);
    CHECK(main->y == 16);
    CHECK(three->y == 32);
    // Callees sit inside their caller, side by side (by name: work_one first).
    CHECK(one->x == doctest::Approx(main->x));
    CHECK(three->x == doctest::Approx(one->x + one->width));
    CHECK(svg.find("height=\"48\"") != std::string::npos);  // three levels
}

TEST_CASE("flame graph: names are escaped, slivers left out, no samples no graph") {
    const std::string svg =
        flame_graph_svg({{"f<int>&g", 1000}, {"tiny", 1}}, FlameStyle{.width_px = 100});
    CHECK(svg.find("f&lt;int&gt;&amp;g") != std::string::npos);
    CHECK(svg.find("f<int>") == std::string::npos);
    CHECK(svg.find("tiny") == std::string::npos);  // 0.1 px wide
    using Stacks = std::vector<std::pair<std::string, std::uint64_t>>;
    CHECK(flame_graph_svg(Stacks{}).empty());
    CHECK(flame_graph_svg(Stacks{{"a", 0}}).empty());
}

TEST_CASE("flame graph: from a row's JSON profile") {
    glint::engine::Json profile = glint::engine::Json::object();
    glint::engine::Json folded = glint::engine::Json::array();
    glint::engine::Json s = glint::engine::Json::object();
    s["stack"] = "a;b";
    s["samples"] = 3;
    folded.push_back(s);
    profile["folded"] = folded;
    CHECK(bars(flame_graph_from_profile(profile)).size() == 3);
    CHECK(flame_graph_from_profile(glint::engine::Json::object()).empty());
}

TEST_CASE(
    "flame graph: a label is cut only by its bar's width, with …, the full name is on hover") {
    const std::string name = "glint::os::linux_sampler::read_ring_buffer_records";  // 50 characters
    // 1000 px: the name's bar (60%) holds it whole; its callee's (5%: 50 px) holds 6 characters.
    const std::string svg =
        flame_graph_svg({{name, 55}, {name + ";callee_with_a_long_name", 5}, {"other", 40}},
                        FlameStyle{.width_px = 1000});
    CHECK(svg.find("<title>" + name + " (60 samples, 60.0%)</title>") != std::string::npos);
    CHECK(svg.find(">" + name + "</text>") != std::string::npos);
    CHECK(svg.find("<title>callee_with_a_long_name (5 samples, 5.0%)</title>") !=
          std::string::npos);
    CHECK(svg.find(">calle…</text>") != std::string::npos);  // (50 - 6) / 6.7 = 6 characters
    CHECK(svg.find("..") == std::string::npos);
    // Under min_text_px a bar has no label, its name still in its title.
    const std::string narrow =
        flame_graph_svg({{"wide", 990}, {"slim", 10}}, FlameStyle{.width_px = 1000});
    CHECK(narrow.find("<title>slim (10 samples, 1.0%)</title>") != std::string::npos);
    CHECK(narrow.find(">slim</text>") == std::string::npos);
    CHECK(narrow.find(">s…</text>") == std::string::npos);
    // A cut never splits a UTF-8 character: 30 px hold 3 characters, "aé…" (the é whole).
    const std::string utf8 = flame_graph_svg({{"aé" + std::string("bcdefgh"), 3}, {"x", 97}},
                                             FlameStyle{.width_px = 1000});
    CHECK(utf8.find(">aé…</text>") != std::string::npos);
}

TEST_CASE("flame graph: a long C++ name is shortened by rule, keeping the function's name") {
    // 14% of 1000 px: (140 - 6) / 6.7 = 20 characters, room for "strlib::to_upper(…)".
    const std::string name =
        "strlib::to_upper(std::__cxx11::basic_string<char, std::char_traits<char>, "
        "std::allocator<char> > const&)";
    const std::string svg =
        flame_graph_svg({{name, 14}, {"other", 86}}, FlameStyle{.width_px = 1000});
    CHECK(svg.find(">strlib::to_upper(…)</text>") != std::string::npos);
    CHECK(svg.find("<title>strlib::to_upper(std::__cxx11::basic_string&lt;char, "
                   "std::char_traits&lt;char&gt;, "
                   "std::allocator&lt;char&gt; &gt; const&amp;) (14 samples, 14.0%)</title>") !=
          std::string::npos);
}
