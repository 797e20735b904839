// --bench-format=md|csv: the run's tables as markdown or CSV, exactly.
#include <doctest/doctest.h>

#include "engine/report/text_formats.hpp"
#include "rows.hpp"
#include "terminal_screen.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;
using glint::catalog::Format;
using glint::catalog::make_cell;

namespace {

std::string run(const std::string& format) {
    CapturedFile captured;
    auto reporter = make_text_format_reporter(captured.file(), format, SortSpec{});
    reporter->header({"glint 0.1.0", "host: a|b"});
    GroupInfo g;
    g.title = "copies";
    g.columns = {metric("ipc", "IPC", Format::ratio)};
    reporter->begin_group(g);
    const auto ipc = metric("ipc", "IPC", Format::ratio);
    Row fast = timed_row("fast, \"quoted\"", batched(32, 4096, 391.0, 1.0, 390.0, 400.0),
                         {make_cell(ipc, 1.5)});
    fast.registration = "copies";
    Row broken = error_row("broken", "mis|match");
    broken.registration = "copies";
    for (const Row& row : {fast, broken}) {
        reporter->case_started(row.name);
        reporter->case_finished(row);
    }
    reporter->end_group();
    return captured.all();
}

}  // namespace

TEST_CASE("text formats: markdown tables carry the box table's cells") {
    CHECK(run("md") == "glint 0.1.0\nhost: a\\|b\n\n"
                       "#### copies\n\n"
                       "| benchmark | n | median/iter | min | max | IPC |\n"
                       "|:---|---:|---:|---:|---:|---:|\n"
                       "| fast, \"quoted\" | 32×4096 | 391.00ns ±1.00ns | 390.00ns | 400.00ns | 1.50 |\n"
                       "| broken | error: mis\\|match | | | | |\n");
}

TEST_CASE("text formats: CSV rows carry raw numbers, quoted where needed, the header as comments") {
    CHECK(run("csv") == "# glint 0.1.0\n# host: a|b\n\n"
                        "# copies\n"
                        "benchmark,registration,samples,iterations,median_ns,mad_ns,min_ns,max_ns,ipc,error,unstable\n"
                        "\"fast, \"\"quoted\"\"\",copies,32,4096,391,1,390,400,1.5,,\n"
                        "broken,copies,,,,,,,,mis|match,\n");
}
