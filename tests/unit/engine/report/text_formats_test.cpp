// --bench-format=md|csv: the run's tables as markdown or CSV, exactly. A time-valued metric
// (task-clock, Format::nanoseconds) reads in the time columns' units in markdown ("5.1µs", never
// "5.11k") and as plain nanoseconds under a "_ns" header in CSV.
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
    const auto ipc = metric("ipc", "IPC", Format::ratio);
    const auto task_clock = metric("task-clock", "task-clock/iter", Format::nanoseconds);
    g.columns = {ipc, task_clock};
    reporter->begin_group(g);
    Row fast = timed_row("fast, \"quoted\"", batched(32, 4096, 391.0, 1.0, 390.0, 400.0),
                         {make_cell(ipc, 1.5), make_cell(task_clock, 5110.0)});
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
    CHECK(run("md") ==
          "```text\nglint 0.1.0\nhost: a|b\n```\n\n"
          "#### copies\n\n"
          "| benchmark | n | median/iter | min | max | IPC | task-clock/iter |\n"
          "|:---|---:|---:|---:|---:|---:|---:|\n"
          "| fast, \"quoted\" | 32×4096 | 391.00ns ±1.00ns | 390.00ns | 400.00ns | 1.50 | 5.1µs |\n"
          "| broken | error: mis\\|match | | | | | |\n");
}

TEST_CASE("text formats: CSV rows carry raw numbers, quoted where needed, the header as comments") {
    CHECK(run("csv") ==
          "# glint 0.1.0\n# host: a|b\n\n"
          "# copies\n"
          "benchmark,registration,samples,iterations,median_ns,mad_ns,min_ns,max_ns,mean_ns,"
          "stddev_ns,cv,ipc,task-clock_ns,error,unstable\n"
          "\"fast, \"\"quoted\"\"\",copies,32,4096,391,1,390,400,,,,1.5,5110,,\n"
          "broken,copies,,,,,,,,,,,,mis|match,\n");
}

namespace {

// A table whose B/s column appears after its first row (an iter declared it), each later row
// with its own amount.
std::string grown(const std::string& format) {
    CapturedFile captured;
    auto reporter = make_text_format_reporter(captured.file(), format, SortSpec{});
    GroupInfo g;
    reporter->begin_group(g);
    const auto rate = metric("B/s", "B/s", Format::count);
    const Row rows[] = {
        timed_row("plain", batched(32, 64, 2.0, 0.1, 1.9, 2.1)),
        timed_row("hash [len=16]", batched(32, 64, 8.0, 0.1, 7.9, 8.1), {make_cell(rate, 2e9)}),
        timed_row("hash [len=4096]", batched(32, 64, 4096.0, 1.0, 4000.0, 4100.0),
                  {make_cell(rate, 1e9)})};
    for (const Row& row : rows) {
        reporter->case_started(row.name);
        if (row.name != "plain") reporter->columns_grew({rate});
        reporter->case_finished(row);
    }
    reporter->end_group();
    return captured.all();
}

}  // namespace

TEST_CASE("text formats: a column that grew mid-table has each row's own value, — / empty before") {
    CHECK(grown("md") ==
          "| benchmark | n | median/iter | min | max | B/s |\n"
          "|:---|---:|---:|---:|---:|---:|\n"
          "| plain | 32×64 | 2.00ns ±0.10ns | 1.90ns | 2.10ns | — |\n"
          "| hash \\[len=16\\] | 32×64 | 8.00ns ±0.10ns | 7.90ns | 8.10ns | 2.00G |\n"
          "| hash \\[len=4096\\] | 32×64 | 4.1µs ±1.00ns | 4.0µs | 4.1µs | 1.00G |\n");
    CHECK(grown("csv") ==
          "benchmark,registration,samples,iterations,median_ns,mad_ns,min_ns,max_ns,mean_ns,"
          "stddev_ns,cv,B/s,error,unstable\n"
          "plain,,32,64,2,0.1,1.9,2.1,,,,,,\n"
          "hash [len=16],,32,64,8,0.1,7.9,8.1,,,,2000000000,,\n"
          "hash [len=4096],,32,64,4096,1,4000,4100,,,,1000000000,,\n");
}

namespace {

// Rows with parameters (labels): one CSV column per key, in the order keys first appear, empty
// where a row lacks it; a key named like a fixed column is prefixed "param:".
std::string parameterised(const std::string& format, const std::vector<std::string>& header) {
    CapturedFile captured;
    auto reporter = make_text_format_reporter(captured.file(), format, SortSpec{});
    reporter->header(header);
    GroupInfo g;
    reporter->begin_group(g);
    Row a = timed_row("hash", batched(4, 64, 8.0, 0.1, 7.9, 8.1));
    a.labels = {{"len", "16"}, {"samples", "x,y"}};
    a.timing->sample_ns = {7.0, 8.0, 9.0, 8.0};
    Row b = timed_row("hash", batched(4, 64, 8.0, 0.1, 7.9, 8.1));
    b.labels = {{"algo", "crc"}, {"len", "4096"}};
    Row c = timed_row("once", batched(1, 64, 3.0, 0.0, 3.0, 3.0));
    c.timing->sample_ns = {3.0};
    for (const Row& row : {a, b, c}) {
        reporter->case_started(row.name);
        reporter->case_finished(row);
    }
    reporter->end_group();
    return captured.all();
}

}  // namespace

TEST_CASE("text formats: CSV has one column per parameter, and the samples' mean, stddev, cv") {
    CHECK(parameterised("csv", {}) ==
          "benchmark,registration,len,param:samples,algo,samples,iterations,median_ns,mad_ns,"
          "min_ns,max_ns,mean_ns,stddev_ns,cv,error,unstable\n"
          "hash,,16,\"x,y\",,4,64,8,0.1,7.9,8.1,8,0.816497,0.102062,,\n"
          "hash,,4096,,crc,4,64,8,0.1,7.9,8.1,,,,,\n"
          "once,,,,,1,64,3,0,3,3,3,,,,\n");
}

TEST_CASE("text formats: markdown fences the run header, longer than any backtick run in it") {
    const std::string md = parameterised("md", {"glint 0.1.0", "note: ```code``` and *stars*"});
    CHECK(md.rfind("````text\nglint 0.1.0\nnote: ```code``` and *stars*\n````\n\n| benchmark", 0) ==
          0);
    CHECK(parameterised("md", {}).rfind("| benchmark", 0) == 0);
}

TEST_CASE(
    "text formats: a metric column no row has a cell for is left out of markdown (unless it says "
    "its metric is unavailable), kept in CSV") {
    const auto run_with_empty_column = [](const std::string& format) {
        CapturedFile captured;
        auto reporter = make_text_format_reporter(captured.file(), format, SortSpec{});
        GroupInfo g;
        const auto ipc = metric("ipc", "IPC", Format::ratio);
        const auto unused = metric("B/s", "B/s", Format::count);  // declared, never valued
        const auto refused = metric("raw:r00c0", "raw:r00c0", Format::count, false);
        g.columns = {ipc, unused, refused};
        reporter->begin_group(g);
        const Row row = timed_row("fast", batched(32, 64, 2.0, 0.1, 1.9, 2.1),
                                  {make_cell(ipc, glint::catalog::kNotMeasured)});
        reporter->case_started(row.name);
        reporter->case_finished(row);
        reporter->end_group();
        return captured.all();
    };
    // IPC stays: the row has a cell, not measured ("—"); B/s goes: no row has one; raw:r00c0
    // stays: its — says the metric asked for is unavailable.
    CHECK(run_with_empty_column("md") ==
          "| benchmark | n | median/iter | min | max | IPC | raw:r00c0 |\n"
          "|:---|---:|---:|---:|---:|---:|---:|\n"
          "| fast | 32×64 | 2.00ns ±0.10ns | 1.90ns | 2.10ns | — | — |\n");
    CHECK(run_with_empty_column("csv").rfind(
              "benchmark,registration,samples,iterations,median_ns,mad_ns,min_ns,max_ns,mean_ns,"
              "stddev_ns,cv,ipc,B/s,raw:r00c0,error,unstable\n",
              0) == 0);
}
