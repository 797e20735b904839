// End to end, Linux (the profile samples with perf_event_open): --bench-html with --profile puts
// each case's flame graph beneath its distribution plot.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <string>

#include "support/process.hpp"

using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;

TEST_CASE("e2e: --bench-html with --profile puts each case's flame graph beneath its plot") {
    const std::string html = "/tmp/glint_e2e_html_profile_" + std::to_string(getpid()) + ".html";
    auto r = run_process({fixture_path("ab"), "--bench", "--bench-min-time=1", "--bench-html=" + html,
                          "--profile", "--profile-samples=50", "--profile-time=100"});
    REQUIRE(r.exit_code == 0);
    const std::string page = read_file(html);
    std::remove(html.c_str());
    std::size_t plots = 0, flames = 0;
    for (auto at = page.find("<svg class=\"dist\""); at != std::string::npos; at = page.find("<svg class=\"dist\"", at + 1)) ++plots;
    for (auto at = page.find("</svg><div class=\"extra\"><svg class=\"flame\""); at != std::string::npos;
         at = page.find("</svg><div class=\"extra\"><svg class=\"flame\"", at + 1))
        ++flames;
    CHECK(plots == 4);
    CHECK(flames == 4);
}
