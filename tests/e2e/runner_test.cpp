// End to end: fixture bench binaries driven through their command line.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

#include "engine/model/json.hpp"
#include "support/platform.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;
using glint::test::temp_path;

namespace {

const Json* find_row(const Json& doc, const std::string& name) {
    for (const auto& row : doc.at("rows").as_array())
        if (row.at("name").as_string() == name) return &row;
    return nullptr;
}

}  // namespace

TEST_CASE("e2e: without --bench every case runs once as a plain test") {
    auto r = run_process({fixture_path("basic")});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "ok    add_chain"));
    CHECK(contains(r.out, "ok    whole_body"));
    CHECK(contains(r.out, "ok    matrix/memcpy"));
    CHECK(contains(r.out, "7 passed, 0 failed"));
    CHECK_FALSE(contains(r.out, "╭"));  // no table outside --bench
}

TEST_CASE("e2e: a failing after or body fails the plain run") {
    auto r = run_process({fixture_path("failing")});
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "ok    good"));
    CHECK(contains(r.out, "FAIL  throws: exception: body exploded"));
    // Each case with its labels, so a failure says which input failed.
    CHECK(contains(r.out, "FAIL  cases/mismatch [kind=bad]: after: mismatch: got 2"));
    CHECK(contains(r.out, "FAIL  cases/after_throws [kind=bad]: exception: verification threw"));
    CHECK(contains(r.out, "ok    cases/also_ok [kind=ok]"));
    CHECK(contains(r.err, "glint: cases/mismatch [kind=bad]: after: mismatch: got 2"));
    CHECK(contains(r.out, "3 passed, 3 failed"));
}

TEST_CASE("e2e: --filter selects cases in both modes") {
    auto plain = run_process({fixture_path("basic"), "--filter=add*"});
    CHECK(plain.exit_code == 0);
    CHECK(contains(plain.out, "1 passed, 0 failed"));
    auto nested = run_process({fixture_path("basic"), "--filter=matrix/fill"});
    CHECK(contains(nested.out, "2 passed, 0 failed"));
    CHECK_FALSE(contains(nested.out, "memcpy"));
    auto bench =
        run_process({fixture_path("basic"), "--bench", "--bench-min-time=0.05", "--filter=whole*"});
    CHECK(bench.exit_code == 0);
    CHECK(contains(bench.out, "whole_body"));
    CHECK_FALSE(contains(bench.out, "add_chain"));
}

TEST_CASE("e2e: --bench prints the piped table and writes the JSON baseline") {
    const std::string json = temp_path("basic.json");
    auto r = run_process(
        {fixture_path("basic"), "--bench", "--bench-min-time=0.05", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    CHECK_FALSE(contains(r.out, "\x1b"));  // piped: no escape codes
    CHECK(contains(r.out, "╭"));
    CHECK(contains(r.out, "median/iter"));
    CHECK(contains(r.out,
                   "×"));  // n: samples × iterations (32, or more where a loaded machine retook)
    CHECK(contains(r.out, "B/s"));
    CHECK(contains(r.out, "elem/s"));
    CHECK(contains(r.out, "provenance: fixture: basic suite"));
    CHECK(contains(r.out, "timer: steady_clock"));
    // No counting tier was asked for: no counter columns, no counting pass.
    CHECK_FALSE(contains(r.out, "ipc"));
    CHECK_FALSE(contains(r.out, "faults/iter"));

    Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    CHECK(doc.at("schema").as_number() == 2);
    CHECK(doc.at("meta").at("knobs").at("minTimeMs").as_number() == 0.05);
    CHECK(doc.at("meta").at("provenance").as_array().at(0).as_string() == "fixture: basic suite");
    const auto& rows = doc.at("rows").as_array();
    REQUIRE(rows.size() == 7);
    // Measurement order: phase 1 (iter, whole body), then the deferred bench_cases.
    CHECK(rows[0].at("name").as_string() == "add_chain");
    CHECK(rows[1].at("name").as_string() == "whole_body");
    CHECK(rows[2].at("name").as_string() == "pinned");
    CHECK(rows[2].at("iterationsPerSample").as_number() == 64);
    // A GLINT_BENCH metric option: a rate from the batched median (64 elements per iteration).
    CHECK(rows[2].at("metrics").at("elem/s").as_number() ==
          doctest::Approx(64 / (rows[2].at("medianNs").as_number() * 1e-9)));
    CHECK(rows[0].at("metrics").at("elem/s").is_null());
    CHECK(rows[3].at("name").as_string() == "memcpy");
    // Labels sorted by key whatever order they were given in.
    const auto& labels = rows[3].at("labels").as_object();
    REQUIRE(labels.size() == 2);
    CHECK(labels[0].first == "dataset");
    CHECK(labels[1].first == "operation");
    CHECK(rows[3].at("perCall").as_bool());
    // Every sample up to 256; beyond, 256 order statistics of them (--bench-json-samples=all
    // keeps all).
    const auto measured = static_cast<std::size_t>(rows[3].at("samples").as_number());
    CHECK(rows[3].at("samplesNs").size() == std::min<std::size_t>(measured, 256));
    CHECK(rows[3].contains("samplesNsThinned") == (measured > 256));
    const Json* large = nullptr;
    for (const auto& row : rows)
        if (row.at("name").as_string() == "memcpy" &&
            row.at("labels").at("dataset").as_string() == "large")
            large = &row;
    REQUIRE(large);
    CHECK(large->at("metrics").at("B/s").as_number() > 0);
    const auto add_samples = static_cast<std::size_t>(rows[0].at("samples").as_number());
    CHECK(add_samples >= 32);  // more when a loaded machine made the protocol retake them
    CHECK(rows[0].at("samplesNs").size() == std::min<std::size_t>(add_samples, 256));
    CHECK(rows[0].at("medianNs").as_number() > 0);
    CHECK_FALSE(rows[0].contains("countIterations"));
    for (const auto& member :
         rows[0].at("metrics").as_object()) {  // clang 14: no captured bindings
        CAPTURE(member.first);
        CHECK(member.second.is_null());  // only B/s and elem/s exist, and add_chain has neither
    }
}

TEST_CASE("e2e: --bench-json-samples=all keeps every sample, and only thinned or all is accepted") {
    const std::string json = temp_path("all_samples.json");
    auto r = run_process({fixture_path("basic"), "--bench", "--bench-min-time=0.05",
                          "--filter=matrix", "--bench-json-samples=all", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    std::size_t above = 0;
    for (const auto& row : doc.at("rows").as_array()) {
        const auto measured = static_cast<std::size_t>(row.at("samples").as_number());
        CHECK(row.at("samplesNs").size() == measured);
        CHECK_FALSE(row.contains("samplesNsThinned"));
        above += measured > 256;
    }
    CHECK(above > 0);  // per-call rows of 1 ms sample far past 256
    auto bad = run_process({fixture_path("basic"), "--bench", "--bench-json-samples=some"});
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "--bench-json-samples"));
}

TEST_CASE("e2e: an error row keeps the matrix running and the exit status non-zero") {
    const std::string json = temp_path("failing.json");
    auto r = run_process(
        {fixture_path("failing"), "--bench", "--bench-min-time=0.05", "--bench-json=" + json});
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "mismatch: got 2"));
    CHECK(contains(r.err, "verification threw"));
    CHECK(contains(r.err, "body exploded"));
    Json doc = Json::parse(glint::test::read_file(json));
    std::remove(json.c_str());
    const Json* bad = find_row(doc, "mismatch");
    REQUIRE(bad);
    CHECK(bad->at("error").as_string() == "after: mismatch: got 2");
    CHECK(bad->at("medianNs").is_null());
    CHECK(bad->at("samplesNs").is_null());
    CHECK(bad->at("labels").at("kind").as_string() == "bad");
    const Json* ok = find_row(doc, "also_ok");
    REQUIRE(ok);
    CHECK(ok->at("medianNs").as_number() >= 0);
    CHECK_FALSE(ok->contains("error"));
    const Json* good = find_row(doc, "good");
    REQUIRE(good);
    CHECK(good->at("medianNs").as_number() > 0);
    CHECK(find_row(doc, "throws"));
}

TEST_CASE("e2e: bad flags exit 2 with one line naming the flag, before measuring") {
    struct Case {
        const char* arg;
        const char* expect;
    } cases[] = {
        {"--no-such-flag", "unknown flag '--no-such-flag'"},
        {"--bench-min-time=fast", "--bench-min-time: 'fast' is not a number"},
        {"--bench-min-time=-1", "--bench-min-time: must be greater than 0"},
        {"--perf-iters=-2", "--perf-iters: must be a positive integer"},
        {"--bench-json=/nonexistent-dir/out.json", "--bench-json:"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.arg);
        auto r = run_process({fixture_path("basic"), "--bench", c.arg});
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, c.expect));
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(r.out.empty());  // nothing measured, no table
    }
}

TEST_CASE("e2e: --group-by streams one table per group with the group in the border") {
    auto r = run_process(
        {fixture_path("basic"), "--bench", "--bench-min-time=0.05", "--group-by=dataset"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "╼ dataset: small ╾"));  // the title names its key
    CHECK(contains(r.out, "╼ dataset: large ╾"));
    CHECK_FALSE(contains(r.out, "implementation"));  // the first column keeps its name
    CHECK(contains(r.out,
                   "╼ dataset: — ╾"));  // the rows without a dataset label: a group of their own
    auto two = run_process({fixture_path("basic"), "--bench", "--bench-min-time=0.05",
                            "--filter=matrix/fill", "--group-by=dataset,operation"});
    CHECK(contains(two.out, "╼ dataset: small · operation: copy ╾"));
    CHECK(contains(two.out, "╼ dataset: large · operation: copy ╾"));
    auto list = run_process({fixture_path("basic"), "--group-by=list"});
    CHECK(list.exit_code == 0);
    CHECK(contains(list.out, "dataset: small, large"));
    CHECK(contains(list.out, "operation: copy"));
}

TEST_CASE("e2e: --group-by=all over rows without labels shows them in one table, as without it") {
    auto r = run_process({fixture_path("basic"), "--bench", "--bench-min-time=0.1",
                          "--filter=add_chain,whole_body", "--group-by=all"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "│ add_chain "));
    CHECK(contains(r.out, "│ whole_body "));
    CHECK(r.out.find("╭") == r.out.rfind("╭"));  // one table
}

TEST_CASE(
    "e2e: a --group-by key or --sort-by column the run does not have exits 2 before measuring") {
    auto key =
        run_process({fixture_path("basic"), "--bench", "--filter=matrix*", "--group-by=datset"});
    CHECK(key.exit_code == 2);
    CHECK(key.err ==
          "glint: error: --group-by: no selected case has a label 'datset' (keys: dataset, "
          "operation); --group-by=list lists the keys and their values\n");
    CHECK(key.out.empty());
    auto column = run_process({fixture_path("basic"), "--bench", "--sort-by=-medain"});
    CHECK(column.exit_code == 2);
    CHECK(
        contains(column.err,
                 "--sort-by: 'medain' is not a column of this run; did you mean --sort-by=-median? "
                 "(this run's columns: name, n, median, mad, min, max, "));
    CHECK(column.out.empty());
    // Nothing close: the run's columns only, never a metric it does not show (ipc, without --perf).
    auto far = run_process({fixture_path("basic"), "--bench", "--sort-by=speed"});
    CHECK(far.exit_code == 2);
    CHECK(contains(
        far.err,
        "--sort-by: 'speed' is not a column of this run (this run's columns: name, n, median, "
        "mad, min, max"));
    CHECK_FALSE(contains(far.err, "ipc"));
    CHECK_FALSE(contains(far.err, "did you mean"));
    // A metric of the catalog the run does not measure (the perf tier is Linux's): why.
    if (glint::test::kLinux) {
        auto unmeasured = run_process({fixture_path("basic"), "--bench", "--sort-by=ipc"});
        CHECK(unmeasured.exit_code == 2);
        CHECK(contains(unmeasured.err, "--sort-by: 'ipc' is not measured in this run: "));
    }
    // A client metric of a bench_case (known only once the bodies ran) is a column.
    auto client = run_process({fixture_path("basic"), "--bench", "--bench-min-time=0.1",
                               "--filter=matrix*", "--sort-by=-B/s"});
    CHECK(client.exit_code == 0);
}

TEST_CASE(
    "e2e: a --filter that selects nothing exits 2 before measuring and names the closest cases") {
    for (const bool bench : {true, false}) {
        CAPTURE(bench);
        std::vector<std::string> args = {fixture_path("basic"), "--filter=adx_chain"};
        if (bench) args.push_back("--bench");
        auto r = run_process(args);
        CHECK(r.exit_code == 2);
        CHECK(r.err ==
              "glint: error: --filter: 'adx_chain' selects no case; closest names: add_chain, "
              "matrix, pinned (terms match names as --list prints them, whole or up to a "
              "'/', '#', ' [' or ',': '*part*' matches a substring)\n");
        CHECK(r.out.empty());
    }
    auto nested = run_process({fixture_path("basic"), "--filter=matrix/fil"});
    CHECK(nested.exit_code == 2);
    CHECK(contains(nested.err, "closest names: matrix/fill"));
}

TEST_CASE("e2e: without --group-by each registration's bench_cases get their own table") {
    auto r = run_process({fixture_path("tables"), "--bench", "--bench-min-time=0.05"});
    REQUIRE(r.exit_code == 0);
    const auto copies = r.out.find("copies");
    const auto parses = r.out.find("parses");
    REQUIRE(copies != std::string::npos);
    REQUIRE(parses != std::string::npos);
    CHECK(copies < parses);
    // Two tables: the second begins after the first ends, and each shows only its own column.
    const std::string first = r.out.substr(copies, parses - copies);
    const std::string second = r.out.substr(parses);
    CHECK(contains(r.out, "╼ copies ╾"));  // the registration's name rides in the top border
    CHECK(contains(r.out, "╼ parses ╾"));
    CHECK(contains(first, "B/s"));
    CHECK_FALSE(contains(first, "docs/s"));
    CHECK(contains(second, "docs/s"));
    CHECK_FALSE(contains(second, "B/s"));
    CHECK(contains(first, "╰"));  // the first table closed before the second began
}

TEST_CASE(
    "e2e: --bench-baseline compares with an earlier --bench-json, and refuses a bad file before "
    "measuring") {
    const std::string base = temp_path("baseline_base.json");
    const std::string next = temp_path("baseline_next.json");
    REQUIRE(run_process(
                {fixture_path("basic"), "--bench", "--bench-min-time=0.05", "--bench-json=" + base})
                .exit_code == 0);
    auto r = run_process({fixture_path("basic"), "--bench", "--bench-min-time=0.05",
                          "--bench-baseline=" + base, "--bench-json=" + next});
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "baseline: " + base + " ("));
    CHECK(contains(r.out, "vs base"));
    Json doc = Json::parse(glint::test::read_file(next));
    std::remove(next.c_str());
    // Every row matches by identity (registration, name, labels); the verdicts follow the tables.
    CHECK(doc.at("meta").at("baseline").at("matched") == Json(7));
    CHECK(contains(r.out, "this run vs " + base + ": geometric mean"));
    const Json* add = find_row(doc, "add_chain");
    REQUIRE(add);
    CHECK(add->at("metrics").at("base-change").is_number());
    CHECK_FALSE(add->at("metrics").contains("base-p"));

    // Bad baselines: exit 2 with one line naming the flag, and no table.
    std::ofstream(next) << "{\"schema\": 1}";
    auto bad = run_process({fixture_path("basic"), "--bench", "--bench-baseline=" + next});
    std::remove(next.c_str());
    std::remove(base.c_str());
    CHECK(bad.exit_code == 2);
    CHECK(
        contains(bad.err, "--bench-baseline: '" + next + "' is not a glint --bench-json document"));
    CHECK_FALSE(contains(bad.out, "╭"));
    auto missing =
        run_process({fixture_path("basic"), "--bench", "--bench-baseline=/nonexistent/b.json"});
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "cannot read '/nonexistent/b.json'"));
}
