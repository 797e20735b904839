// End to end: placement (--pin, --numa-node), the environment checks and the unstable marks.
#include <doctest/doctest.h>

#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/model/json.hpp"
#include "os/cpu_affinity.hpp"
#include "os/cpu_list.hpp"
#include "support/competitor.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"

using glint::engine::Json;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::run_process;
using glint::test::unwrapped;

namespace {

std::string temp_json(const std::string& stem) {
    return glint::test::temp_json_path("noise_" + stem);
}

Json load(const std::string& path) {
    Json doc = Json::parse(glint::test::read_file(path));
    std::remove(path.c_str());
    return doc;
}

const Json& row(const Json& doc, const std::string& name) {
    for (const auto& r : doc.at("rows").as_array())
        if (r.at("name").as_string() == name) return r;
    FAIL("no row " << name);
    throw;
}

std::vector<std::string> strings(const Json& array) {
    std::vector<std::string> out;
    for (const auto& s : array.as_array()) out.push_back(s.as_string());
    return out;
}

// Runs the noise fixture with `args` and, while its "affinity" case runs (the fixture's
// handshake holds it there), reads the measuring thread's Cpus_allowed_list from
// /proc/<pid>/task/<tid>/status. Returns the run and that list ("" when it never got there).
std::pair<glint::test::ProcessResult, std::string> run_observing_affinity(
    std::vector<std::string> args) {
    char pattern[] = "/tmp/glint_e2e_handshake_XXXXXX";
    REQUIRE(mkdtemp(pattern) != nullptr);
    const std::filesystem::path dir = pattern;
    args.insert(args.begin(), fixture_path("noise"));
    glint::test::ProcessResult result;
    std::atomic<bool> finished{false};
    std::thread runner([&] {
        result = run_process(args, {"GLINT_NOISE_HANDSHAKE=" + dir.string()});
        finished = true;
    });
    std::string allowed;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!finished && !std::filesystem::exists(dir / "running") &&
           std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (std::filesystem::exists(dir / "running")) {
        long pid = 0, tid = 0;
        std::ifstream(dir / "running") >> pid >> tid;
        std::ifstream status("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) +
                             "/status");
        for (std::string line; std::getline(status, line);)
            if (line.rfind("Cpus_allowed_list:", 0) == 0)
                std::istringstream(line.substr(18)) >> allowed;
        std::ofstream(dir / "seen") << "\n";
    }
    runner.join();
    std::filesystem::remove_all(dir);
    return {std::move(result), allowed};
}

}  // namespace

TEST_CASE("e2e: --pin=0 runs the cases with an affinity of CPU 0, and JSON says so") {
    const auto allowed = glint::os::thread_affinity();
    if (std::find(allowed.begin(), allowed.end(), 0u) == allowed.end())
        return glint::test::skip("CPU 0 is not one this test may use");
    const std::string json = temp_json("pin");
    auto [r, seen] =
        run_observing_affinity({"--bench", "--bench-min-time=0.05", "--filter=affinity", "--pin=0",
                                "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    // What the kernel says of the measuring thread while the case runs, read by this test.
    CHECK(seen == "0");
    // ... and read by the case itself (/proc/self/status), stamped as provenance.
    CHECK(contains(r.out, "provenance: Cpus_allowed_list: 0\n"));
    CHECK(contains(r.out, "placement: pinned to CPU 0 (--pin=0)"));
    const Json doc = load(json);
    const Json& placement = doc.at("meta").at("placement");
    CHECK(placement.at("pin").as_string() == "cpu");
    CHECK(placement.at("pinnedCpu").as_number() == 0);
    REQUIRE(placement.at("cpus").as_array().size() == 1);
    CHECK(placement.at("cpus").as_array()[0].as_number() == 0);
    const Json& affinity = row(doc, "affinity");
    CHECK(affinity.at("cpu").as_number() == 0);  // one CPU, not a list: it never moved
    CHECK(affinity.at("migrations").as_number() == 0);
    const auto reasons = strings(affinity.at("unstable"));
    CHECK(std::find(reasons.begin(), reasons.end(), "migrated") == reasons.end());
    CHECK(doc.at("meta").at("environment").at("cpus").as_array().size() == 1);
    CHECK(doc.at("meta").at("topology").at("cpu").as_number() == 0);
    // The core's speed, probed at the run's start and end (core_speed.hpp): measured, and warned
    // of exactly when a tenth of the chunks read slow.
    const Json& speed = doc.at("meta").at("environment").at("coreSpeed");
    CHECK(speed.at("start").at("chunks").as_number() > 0);
    CHECK(speed.at("end").at("chunks").as_number() > 0);
    CHECK(speed.at("chunks").as_number() + speed.at("interruptedChunks").as_number() ==
          speed.at("start").at("chunks").as_number() +
              speed.at("start").at("interruptedChunks").as_number() +
              speed.at("end").at("chunks").as_number() +
              speed.at("end").at("interruptedChunks").as_number());
    CHECK(speed.at("fastestNsPerStep").as_number() > 0);
    CHECK(speed.at("fastestNsPerStep").as_number() <= speed.at("p90NsPerStep").as_number());
    const double slow_share = speed.at("slowShare").as_number();
    CHECK(slow_share >= 0);
    CHECK(slow_share <= 1);
    bool warned = false;
    for (const auto& w : doc.at("meta").at("environment").at("warnings").as_array())
        warned = warned || w.at("check").as_string() == "core-speed";
    CHECK(warned == (slow_share >= 0.1));
    CHECK(contains(unwrapped(r.out), "environment: the core's speed changed") == warned);
}

TEST_CASE("e2e: --pin=auto pins to one allowed CPU and says how it chose") {
    const std::string json = temp_json("auto");
    auto r = run_process({fixture_path("noise"), "--bench", "--bench-min-time=0.05",
                          "--filter=affinity", "--pin=auto", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const Json doc = load(json);
    const Json& placement = doc.at("meta").at("placement");
    const auto allowed = glint::os::thread_affinity();
    const auto cpu = static_cast<unsigned>(placement.at("pinnedCpu").as_number());
    CHECK(std::find(allowed.begin(), allowed.end(), cpu) != allowed.end());
    CHECK(contains(placement.at("chosenBy").as_string(), "--pin=auto: "));
    if (allowed.size() > 1)  // docs/noise.md's figure: /proc/stat over 100 ms
        CHECK(contains(placement.at("chosenBy").as_string(), " over 100 ms, "));
    CHECK(contains(r.out, "provenance: Cpus_allowed_list: " + std::to_string(cpu) + "\n"));
}

TEST_CASE("e2e: a case that sleeps in its timed region is marked unstable for its CPU time") {
    const std::string json = temp_json("sleep");
    auto r = run_process({fixture_path("noise"), "--bench", "--bench-min-time=0.05",
                          "--filter=sleeper", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const Json doc = load(json);
    const Json& sleeper = row(doc, "sleeper");
    CHECK(sleeper.at("cpuWallRatio").as_number() < 0.5);
    CHECK(sleeper.at("samplesCpuNs").as_array().size() == 32);
    const auto reasons = strings(sleeper.at("unstable"));
    CHECK(std::find(reasons.begin(), reasons.end(), "cpu-time") != reasons.end());
    CHECK(contains(r.out, "│ ~"));    // the median cell carries the mark
    CHECK(contains(r.out, "│ cpu"));  // and the unstable column its code
    CHECK(contains(r.out, "~ unstable: "));
    CHECK(contains(r.out, "\n~cpu "));
    CHECK(contains(r.out, "CPU/wall < 0.9 (cpu-time, 1 row)"));
    CHECK(doc.at("meta").at("stability").at("thresholds").at("minCpuWall").as_number() == 0.9);
}

TEST_CASE(
    "e2e: after --pin the legend, the HTML report and the environment lines suggest no --pin") {
    const std::string json = temp_json("pinned"), html = temp_json("pinned") + ".html";
    auto r =
        run_process({fixture_path("noise"), "--bench", "--bench-min-time=0.05", "--filter=sleeper",
                     "--pin=auto", "--bench-json=" + json, "--bench-html=" + html});
    REQUIRE(r.exit_code == 0);
    const auto reasons = strings(row(load(json), "sleeper").at("unstable"));
    REQUIRE(std::find(reasons.begin(), reasons.end(), "cpu-time") !=
            reasons.end());  // it sleeps: noise
    const std::string out = unwrapped(r.out);
    CHECK(contains(out, "~ unstable: "));
    CHECK((contains(out, " · pinned already: a quieter machine") ||
           contains(out, " · pinned to an isolated CPU already: a quieter machine")));
    CHECK_FALSE(contains(out, "try --pin"));
    CHECK_FALSE(contains(out, "--pin to a quiet CPU"));
    CHECK_FALSE(
        contains(out, "pin the run there"));  // the isolation warning, when the CPU is not isolated
    const std::string report = glint::test::read_file(html);
    std::remove(html.c_str());
    CHECK((contains(report, "pinned already: a quieter machine") ||
           contains(report, "pinned to an isolated CPU already: a quieter machine")));
    CHECK_FALSE(contains(report, "try --pin"));
    if (glint::os::thread_affinity().size() < 2) return;  // one CPU: a run is pinned without --pin
    auto unpinned = run_process(
        {fixture_path("noise"), "--bench", "--bench-min-time=0.05", "--filter=sleeper"});
    REQUIRE(unpinned.exit_code == 0);
    CHECK(contains(unwrapped(unpinned.out), " · try --pin, a quieter machine"));
}

TEST_CASE("e2e: samples too short for the timer at a tiny --bench-min-time ask for a longer one") {
    const std::string json = temp_json("short");
    auto r = run_process({fixture_path("noise"), "--bench", "--bench-min-time=0.001",
                          "--filter=affinity", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const auto reasons = strings(row(load(json), "affinity").at("unstable"));
    if (std::find(reasons.begin(), reasons.end(), "timer-resolution") == reasons.end())
        return glint::test::skip("the timer resolves 1 µs samples here: no timer-resolution row");
    CHECK(contains(unwrapped(r.out), " or more (a sample needs 1000 timer steps)"));
    CHECK(contains(unwrapped(r.out), " · try --bench-min-time="));
    CHECK_FALSE(contains(r.out, "glint::iterations"));  // the case pins no iterations
}

TEST_CASE(
    "e2e: under --isolate a row measured in a child keeps its unstable mark, CPU and counts") {
    const std::string json = temp_json("isolate");
    auto r = run_process({fixture_path("noise"), "--bench", "--bench-min-time=0.05",
                          "--filter=sleeper", "--isolate", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "│ ~"));  // the parent's table marks the row the child sent
    CHECK(contains(r.out, "CPU/wall < 0.9 (cpu-time, 1 row)"));
    const Json doc = load(json);
    const Json& sleeper = row(doc, "sleeper");
    const auto reasons = strings(sleeper.at("unstable"));
    CHECK(std::find(reasons.begin(), reasons.end(), "cpu-time") != reasons.end());
    CHECK(sleeper.at("cpuWallRatio").as_number() < 0.5);
    CHECK(sleeper.at("samplesCpuNs").as_array().size() == 32);
    // The CPU the child ran on came back: one CPU, or [start, end] when the sleeper woke on
    // another (the run is not pinned).
    const Json& cpu = sleeper.at("cpu");
    CHECK((cpu.is_number() || (cpu.is_array() && cpu.as_array().size() == 2)));
}

TEST_CASE("e2e: samples of too few pinned iterations are flagged below the timer's resolution") {
    const std::string json = temp_json("tiny");
    auto r = run_process({fixture_path("noise"), "--bench", "--bench-min-time=1", "--filter=tiny",
                          "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    const Json doc = load(json);
    const auto reasons = strings(row(doc, "tiny").at("unstable"));
    CHECK(std::find(reasons.begin(), reasons.end(), "timer-resolution") != reasons.end());
    CHECK(contains(unwrapped(r.out), "\n~timer "));  // the legend's entry for the row's code
    CHECK(contains(unwrapped(r.out), "sample < 1000 timer steps (timer-resolution, 1 row)"));
    CHECK(contains(unwrapped(r.out),
                   "more iterations per sample (glint::iterations)\n"));  // the footer's remedy
    CHECK(doc.at("meta").at("stability").at("thresholds").at("minTimerSteps").as_number() == 1000);
}

TEST_CASE(
    "e2e: environment warnings print with their remedy, and --quiet-environment keeps them in JSON "
    "only") {
    if (glint::os::thread_affinity().size() < 2)
        return glint::test::skip("one CPU: an unpinned run cannot move, so no warning is certain");
    const std::string loud_json = temp_json("loud"), quiet_json = temp_json("quiet");
    auto [loud, seen] = run_observing_affinity(
        {"--bench", "--bench-min-time=0.05", "--filter=affinity", "--bench-json=" + loud_json});
    REQUIRE(loud.exit_code == 0);
    CHECK(seen == glint::os::format_cpu_list(glint::os::thread_affinity()));  // unpinned: every CPU
    CHECK(contains(unwrapped(loud.out),
                   "environment: not pinned: the scheduler may move the run across CPUs "));
    CHECK(contains(unwrapped(loud.out), " — --pin=auto (the least busy CPU) or --pin=CPU\n"));
    auto quiet =
        run_process({fixture_path("noise"), "--bench", "--bench-min-time=0.05", "--filter=affinity",
                     "--quiet-environment", "--bench-json=" + quiet_json});
    REQUIRE(quiet.exit_code == 0);
    CHECK_FALSE(contains(quiet.out, "environment:"));
    CHECK(contains(quiet.out, "placement: not pinned"));
    const Json loud_doc = load(loud_json), quiet_doc = load(quiet_json);
    const Json& warnings = quiet_doc.at("meta").at("environment").at("warnings");
    CHECK(quiet_doc.at("meta").at("environment").at("quiet").as_bool());
    bool pinning = false;
    for (const auto& w : warnings.as_array())
        pinning = pinning || w.at("check").as_string() == "pinning";
    CHECK(pinning);
    CHECK_FALSE(loud_doc.at("meta").at("environment").at("quiet").as_bool());
}

TEST_CASE("e2e: a CPU or NUMA node the run cannot use is bad usage, before anything is measured") {
    auto cpu = run_process({fixture_path("noise"), "--bench", "--pin=4000"});
    CHECK(cpu.exit_code == 2);
    CHECK(contains(
        cpu.err, "glint: error: --pin=4000: CPU 4000 is not one this process may use (allowed: "));
    CHECK_FALSE(contains(cpu.out, "╭"));
    auto node = run_process({fixture_path("noise"), "--bench", "--numa-node=4000"});
    CHECK(node.exit_code == 2);
    CHECK(contains(node.err, "glint: error: --numa-node=4000: no such NUMA node"));
    auto word = run_process({fixture_path("noise"), "--bench", "--pin=fast"});
    CHECK(word.exit_code == 2);
    CHECK(contains(word.err, "--pin: 'fast' is not a number; expected --pin=CPU|auto"));
}

TEST_CASE("e2e: the numa:node<N> columns state where a case's buffer lives") {
    const std::string json = temp_json("numa");
    auto r = run_process({fixture_path("noise"), "--bench", "--bench-min-time=0.05",
                          "--filter=numa/*", "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "numa:node0"));
    const Json doc = load(json);
    const Json& metrics = row(doc, "sum").at("metrics");
    double total = 0;
    for (const auto& node : doc.at("meta").at("topology").at("numaNodes").as_array()) {
        const std::string column =
            "numa:node" + std::to_string(static_cast<int>(node.at("id").as_number()));
        REQUIRE(metrics.contains(column));
        total += metrics.at(column).as_number();
    }
    CHECK(total == doctest::Approx(100.0));  // every page of the touched buffer is on some node
}

namespace {

const char* const kLoadedRows[] = {"loaded_iter", "loaded_batched", "loaded_copied", "call"};

Json run_loaded_rows(unsigned cpu, const std::string& stem) {
    const std::string json = temp_json(stem);
    auto r = run_process({fixture_path("noise"), "--bench", "--filter=loaded_*",
                          "--pin=" + std::to_string(cpu), "--bench-json=" + json});
    REQUIRE(r.exit_code == 0);
    return load(json);
}

}  // namespace

TEST_CASE("e2e: every kind of case records each sample's CPU time, clamped to its wall time") {
    const std::string json = temp_json("cpu_kinds");
    auto r = run_process({fixture_path("noise"), "--bench", "--bench-min-time=0.05",
                          "--filter=loaded_*", "--bench-json=" + json, "--bench-json-samples=all"});
    REQUIRE(r.exit_code == 0);
    const Json doc = load(json);
    for (const std::string name : kLoadedRows) {
        CAPTURE(name);
        const Json& x = row(doc, name);
        const auto& wall = x.at("samplesNs").as_array();
        const auto& cpu = x.at("samplesCpuNs").as_array();  // iter_batched and per-call too
        REQUIRE(cpu.size() == wall.size());
        for (std::size_t i = 0; i < cpu.size(); ++i)
            CHECK(cpu[i].as_number() <= wall[i].as_number());
        CHECK(x.at("cpuWallRatio").as_number() <= 1.0);
        const std::string estimator = x.at("estimator").as_string();
        CHECK((estimator == "clean-median" || estimator == "all-median"));
        CHECK(x.at("cleanSamples").as_number() + x.at("disturbedSamples").as_number() ==
              x.at("samples").as_number());
        CHECK(x.at("spreadNs").as_number() >= x.at("madNs").as_number());
    }
}

namespace {

// What a loaded run's rows must show against the idle runs before and after it (empty: all
// held). `lost`: whether the competitor took CPU time from the samples.
std::vector<std::string> judge_loaded(const Json& idle_before, const Json& loaded,
                                      const Json& idle_after, bool& lost) {
    std::vector<std::string> problems;
    for (const std::string name : kLoadedRows) {
        // The idle reference: whichever of the runs before and after is nearer the loaded one.
        const Json& first = row(idle_before, name);
        const Json& second = row(idle_after, name);
        const Json& after = row(loaded, name);
        auto distance = [&](const Json& idle) {
            return std::fabs(idle.at("medianNs").as_number() - after.at("medianNs").as_number());
        };
        const Json& before = distance(first) <= distance(second) ? first : second;
        const double idle_median = before.at("medianNs").as_number();
        const double median = after.at("medianNs").as_number();
        const double spread = after.at("spreadNs").as_number();
        auto problem = [&](const std::string& what) {
            problems.push_back(name + ": " + what + " (idle " + std::to_string(idle_median) +
                               ", loaded " + std::to_string(median) + " ± " +
                               std::to_string(spread) + ")");
        };
        lost = lost || after.at("cpuWallRatio").as_number() < 0.9 ||
               after.at("disturbedSamples").as_number() > 0;
        const auto reasons = strings(after.at("unstable"));
        auto has = [&](const char* r) {
            return std::find(reasons.begin(), reasons.end(), r) != reasons.end();
        };
        const std::string estimator = after.at("estimator").as_string();
        if (estimator == "all-median") {
            // Too few clean samples is allowed only where the core-speed probes took them (a
            // core whose speed changed, docs/load.md "Core speed"): by CPU time alone enough
            // samples were clean, and the row says it is disturbed.
            const double clean = after.at("cleanSamples").as_number();
            const double slow = after.at("slowCoreSamples").as_number();
            if (clean + slow < std::max(8.0, after.at("samples").as_number() / 2))
                problem("too few samples kept the CPU: " + std::to_string(clean) + " clean, " +
                        std::to_string(slow) + " on a slowed core");
            if (!has("disturbed")) problem("all-median without the disturbed mark");
        } else {
            if (estimator != "clean-median") problem("estimator " + estimator);
            if (has("cpu-time")) problem("marked cpu-time");
            if (has("disturbed")) problem("marked disturbed");
        }
        // What the competitor did before the clean-sample headline: every >= 5 ms sample lost
        // about half its wall time, so the median read ~2x idle. Issue 24's 3% goal is judged
        // by bench/load.sh, not here: this VM's core runs at more than one speed (docs/load.md,
        // "Core speed"), so the bound is a quarter, or the printed ± (the idle run's own allowed
        // for).
        const double idle_spread = before.at("spreadNs").as_number();
        if (std::fabs(median - idle_median) > std::max(spread + idle_spread, 0.25 * idle_median))
            problem("the headline moved");
    }
    return problems;
}

}  // namespace

// Asked of up to 3 sequences (idle, loaded, idle), each judged alone: a core that changes speed
// between the runs (this VM's, docs/load.md "Core speed") can fail one; a competitor that moves
// the headline fails all three.
TEST_CASE(
    "e2e: a busy process pinned to the measuring CPU moves no headline (on a quiet machine)") {
    const auto allowed = glint::os::thread_affinity();
    REQUIRE_FALSE(allowed.empty());
    const unsigned cpu = allowed.back();
    std::vector<std::string> problems;
    bool lost = false;
    for (int attempt = 0; attempt < 3; ++attempt) {
        const Json idle_before = run_loaded_rows(cpu, "idle");
        Json loaded;
        {
            glint::test::PinnedCompetitor competitor(cpu);
            loaded = run_loaded_rows(cpu, "loaded");
        }
        const Json idle_after = run_loaded_rows(cpu, "idle_after");
        problems = judge_loaded(idle_before, loaded, idle_after, lost);
        if (problems.empty()) break;
        for (const auto& p : problems) MESSAGE("sequence " << attempt + 1 << ": " << p);
    }
    CHECK(problems.empty());
    CHECK(lost);
}
