// End to end, Linux (the profile samples with perf_event_open): --bench-html with --profile puts
// each case's flame graph in a full-width row beneath the case's row.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "engine/model/json.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"

#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;

TEST_CASE("e2e: --bench-html with --profile puts each case's flame graph beneath its row") {
    // A row's flame graph is drawn from its profile's stacks. How many samples a case gets in its
    // pass's wall-time bound depends on the CPU time the machine leaves it (a per-call case of a
    // few µs drew none once at load 4-6, so 3 flame graphs of 4): the time bound is generous, and
    // the page is checked against the profiles the same run recorded, not against a count.
    const std::string stem = glint::test::temp_path("html_profile");
    const std::string html = stem + ".html", json = stem + ".json";
    auto r = run_process({fixture_path("ab"), "--bench", "--bench-min-time=0.05",
                          "--bench-html=" + html, "--bench-json=" + json, "--profile",
                          "--profile-samples=50", "--profile-time=2000"});
    REQUIRE(r.exit_code == 0);
    const std::string page = read_file(html);
    const Json doc = Json::parse(read_file(json));
    std::remove(html.c_str());
    std::remove(json.c_str());
    std::size_t sampled = 0;  // rows whose profile holds a stack to draw
    for (const auto& row : doc.at("rows").as_array()) {
        CAPTURE(row.at("name").as_string());
        REQUIRE(row.find("profile"));
        const Json* folded = row.at("profile").find("folded");
        bool drawn = false;
        if (folded && folded->is_array())
            for (const auto& s : folded->as_array())
                drawn = drawn || s.at("samples").as_number() > 0;
        sampled += drawn ? 1 : 0;
    }
    if (sampled == 0)
        return glint::test::skip("no case got a profile sample on this machine: nothing to draw");
    std::size_t plots = 0, flames = 0;
    for (auto at = page.find("<svg class=\"dist\""); at != std::string::npos;
         at = page.find("<svg class=\"dist\"", at + 1))
        ++plots;
    // Each flame graph fills the full-width row beneath its case's row.
    const std::string beneath = "</td></tr>\n<tr class=\"extra\"><td colspan=",
                      flame = "<svg class=\"flame\"";
    for (auto at = page.find(beneath); at != std::string::npos; at = page.find(beneath, at + 1)) {
        const auto cell = page.find('>', at + beneath.size());
        flames += page.compare(cell + 1, flame.size(), flame) == 0 ? 1 : 0;
    }
    INFO(sampled << " of 4 cases sampled");
    CHECK(plots == 4);
    CHECK(flames == sampled);
}
