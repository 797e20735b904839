// End to end: --simulate (fixture simulated_x86_64.cpp) re-runs the suite under Valgrind's
// Callgrind and reads exact simulated counts per iteration (docs/simulated.md). Counts are
// exact, so these checks hold on a loaded machine: bodies of K adds read K instructions, a
// chase beyond the simulated last level misses it once a step, a random branch mispredicts
// half the time, setup is not counted, two runs read the same instructions, and glint-compare
// judges the suite on them with one run a side. Skipped where Callgrind is not available.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

namespace gt = glint::test;
using nlohmann::json;

namespace {

// Every row but the slow 32 MiB chase and the refused multi-threaded one: 11 rows.
constexpr const char* kGateRows = "asm/*,chase/l1,branch/*,batched/*,per-call*,func,sum*,ab/*";

bool simulation_available() {
    const auto caps = gt::run_process({gt::fixture_path("simulated_x86_64"), "--capabilities"});
    for (const auto& line : {std::string("simulated-cpu")}) {
        const auto at = caps.out.find(line);
        if (at == std::string::npos) return false;
        const auto end = caps.out.find('\n', at);
        if (!gt::contains(caps.out.substr(at, end - at), "available") ||
            gt::contains(caps.out.substr(at, end - at), "unavailable"))
            return false;
    }
    return true;
}

json simulate(const gt::TempDir& dir, const std::string& name, const std::string& filter,
              const std::vector<std::string>& env = {}) {
    const std::string path = dir.file(name);
    const auto run = gt::run_process(
        {gt::fixture_path("simulated_x86_64"), "--bench", "--simulate", "--quiet-environment",
         "--perf-iters=200", "--filter=" + filter, "--bench-json=" + path},
        env);
    INFO(run.err);
    INFO(run.out);
    REQUIRE(run.exit_code == 0);
    return json::parse(gt::read_file(path));
}

// The first row named `name` (a parameterised name: its first combination).
const json& row(const json& doc, const std::string& name) {
    const json& rows = doc["rows"];
    const auto at =
        std::find_if(rows.begin(), rows.end(), [&](const json& r) { return r["name"] == name; });
    REQUIRE_MESSAGE(at != rows.end(), "no row " << name);
    return *at;
}

double sim(const json& doc, const std::string& name, const std::string& column) {
    const json& m = row(doc, name)["metrics"];
    INFO(name << " " << column << " " << m.dump());
    REQUIRE(m.contains(column));
    REQUIRE(m[column].is_number());
    return m[column].get<double>();
}

}  // namespace

TEST_CASE("e2e simulated: exact counts for every kind of case, in one run") {
    if (!simulation_available()) return glint::test::skip("Callgrind is not available here");
    gt::TempDir dir("sim");
    const json doc = simulate(dir, "all.json", "*");
    // Bodies of exactly K adds: exactly K simulated instructions per iteration.
    CHECK(sim(doc, "asm/add5", "sim-instr") == 5.0);
    CHECK(sim(doc, "asm/add12", "sim-instr") == 12.0);
    // A chase over 32 MiB (4 x the simulated LL) misses it about once a step; 16 KiB, never.
    CHECK(sim(doc, "chase/beyond-ll", "sim-lld-miss") == doctest::Approx(1.0).epsilon(0.1));
    CHECK(sim(doc, "chase/l1", "sim-lld-miss") < 0.01);
    CHECK(sim(doc, "chase/l1", "sim-l1d-miss") < 0.01);
    // A branch on random bits mispredicts about half the time; on constant bits, almost never.
    CHECK(sim(doc, "branch/random", "sim-branch-miss") == doctest::Approx(0.5).epsilon(0.15));
    CHECK(sim(doc, "branch/constant", "sim-branch-miss") < 0.01);
    // Setup sums 2000 values per input (thousands of instructions): none of it is counted.
    CHECK(sim(doc, "batched/costly-setup", "sim-instr") < 100);
    CHECK(sim(doc, "batched/costly-setup", "sim-instr") > 8);
    // Per-call and parameterised rows are counted; 48 more elements cost more instructions.
    CHECK(sim(doc, "func", "sim-instr") > 4);
    double sum16 = 0, sum64 = 0;
    for (const auto& r : doc["rows"])
        if (r["name"] == "sum")
            (r["labels"]["n"] == "16" ? sum16 : sum64) = r["metrics"]["sim-instr"].get<double>();
    CHECK(sum16 > 16);
    CHECK(sum64 > sum16 + 48);
    // A multi-threaded row is refused: null, never 0.
    CHECK(row(doc, "threads/two")["metrics"]["sim-instr"].is_null());
    // The tier's meta and the row's wall time under Callgrind.
    const json& meta = doc["meta"]["tiers"]["simulated"];
    CHECK(meta["status"] == "available");
    CHECK(meta["bracketCost"]["sim-instr"].get<double>() > 0);
    CHECK(row(doc, "asm/add5").contains("metrics"));
    CHECK(row(doc, "chase/l1")["simulated"]["wallSeconds"].get<double>() > 0);
}

TEST_CASE("e2e simulated: identical counts run to run, and the gate judges them exactly") {
    if (!simulation_available()) return glint::test::skip("Callgrind is not available here");
    gt::TempDir dir("simgate");
    const json a = simulate(dir, "a.json", kGateRows);
    const json b = simulate(dir, "b.json", kGateRows);
    REQUIRE(a["rows"].size() >= 8);
    REQUIRE(a["rows"].size() == b["rows"].size());
    for (std::size_t i = 0; i < a["rows"].size(); ++i) {
        INFO(a["rows"][i]["name"]);
        CHECK(a["rows"][i]["metrics"]["sim-instr"] == b["rows"][i]["metrics"]["sim-instr"]);
    }
    // A/A, one run a side: every change exactly 0 on the simulated basis, the gate passes.
    const auto aa = gt::run_process({gt::compare_path(), "--format=json", "--fail-if-slower=2",
                                     dir.file("a.json"), dir.file("b.json")});
    INFO(aa.out << aa.err);
    CHECK(aa.exit_code == 0);
    const json same = json::parse(aa.out);
    for (const auto& r : same["rows"]) {
        INFO(r.dump());
        CHECK(r["changes"][0]["basis"] == "simulated");
        CHECK(r["changes"][0]["changePercent"].get<double>() == 0.0);
    }
    CHECK(same["gate"]["judgedOnSimulated"] == a["rows"].size());
    // A/B: three more adds in one function fail exactly the row that calls it.
    simulate(dir, "c.json", kGateRows, {"GLINT_FIXTURE_EXTRA_ADDS=1"});
    const auto ab = gt::run_process({gt::compare_path(), "--format=json", "--fail-if-slower=2",
                                     dir.file("a.json"), dir.file("c.json")});
    INFO(ab.out << ab.err);
    CHECK(ab.exit_code == 1);
    const json changed = json::parse(ab.out);
    REQUIRE(changed["gate"]["rows"].size() == 1);
    CHECK(gt::contains(changed["gate"]["rows"][0].get<std::string>(), "ab/func"));
    const auto text = gt::run_process(
        {gt::compare_path(), "--fail-if-slower=2", dir.file("a.json"), dir.file("c.json")});
    CHECK(gt::contains(text.out, "judged on simulated instructions"));
}

TEST_CASE("e2e simulated: --list-metrics and --capabilities name the simulated columns") {
    const auto list = gt::run_process({gt::fixture_path("simulated_x86_64"), "--list-metrics"});
    CHECK(list.exit_code == 0);
    CHECK(gt::contains(list.out, "sim-instr"));
    CHECK(gt::contains(list.out, "sim-lld-miss"));
    const auto caps = gt::run_process({gt::fixture_path("simulated_x86_64"), "--capabilities"});
    CHECK(gt::contains(caps.out, "simulated-cpu"));
}
