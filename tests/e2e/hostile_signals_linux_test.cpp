// End to end, hostile input round three (issue 44): signals that end a run without --isolate
// (a timer, a user signal, a CPU or file-size limit, a fault in a plain run), a case that stops
// itself, and a thread that cannot be created. Limits are set in the run's own process (sh's
// ulimit, then exec), never in the test's. Each test bounds its own time:
// BackgroundProcess::wait kills the run (SIGKILL) when it outlives its limit.
#include <doctest/doctest.h>

#include <signal.h>

#include <string>
#include <vector>

#include "engine/model/json.hpp"
#include "support/hostile_runs.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using namespace glint::test;

namespace {

// A --bench run of the fixture's `filter` cases into `json`, each sample `min_ms` long.
std::vector<std::string> bench(const std::string& json, const std::string& filter,
                               const std::string& min_ms = "0.05") {
    return {fixture_path("hostile_signals_linux"), "--bench", "--bench-min-time=" + min_ms,
            "--filter=" + filter, "--bench-json=" + json};
}

std::vector<std::string> names(const Json& doc) {
    std::vector<std::string> out;
    for (const auto& row : doc.at("rows").as_array()) out.push_back(row.at("name").as_string());
    return out;
}

}  // namespace

TEST_CASE(
    "e2e hostile signals: SIGALRM and SIGUSR1 raised in a case stop the run with a line naming "
    "the case and the signal, the finished rows in the document, and 128 + the signal") {
    struct Probe {
        const char* action;
        int signal;
        const char* name;
    };
    for (const Probe p : {Probe{"alarm", SIGALRM, "SIGALRM"}, Probe{"usr1", SIGUSR1, "SIGUSR1"}}) {
        CAPTURE(p.name);
        TempDir dir{"glint-e2e-hostile-signals"};
        const std::string json = dir.file("out.json");
        const auto r = ended_with(128 + p.signal, bench(json, "calm_first,sig_case,calm_last"),
                                  {std::string("GLINT_HOSTILE=") + p.action});
        CHECK(contains(r.err, p.name));  // at a checkpoint, or past the grace: both name them
        CHECK(contains(r.err, "sig_case"));
        const Json doc = Json::parse(read_file(json));
        const Json& interrupted = doc.at("meta").at("interrupted");
        CHECK(interrupted.at("by").as_string() == p.name);
        CHECK(interrupted.at("duringCase").as_string() == "sig_case");
        CHECK(names(doc) == std::vector<std::string>{"calm_first"});
    }
}

TEST_CASE(
    "e2e hostile signals: a CPU-time limit (SIGXCPU, 152) or a file-size limit (SIGXFSZ, 153) "
    "stops the run with a line naming the signal") {
    struct Limit {
        const char* ulimit;
        const char* min_ms;  // a sample's length
        int signal;
        const char* name;
    };
    // 100 ms samples need far more CPU than 1 s; 8 blocks hold the journal's first lines, not
    // the rows or the document.
    for (const Limit limit : {Limit{"ulimit -S -t 1", "100", SIGXCPU, "SIGXCPU"},
                              Limit{"ulimit -f 8", "0.05", SIGXFSZ, "SIGXFSZ"}}) {
        CAPTURE(limit.name);
        TempDir dir{"glint-e2e-hostile-signals"};
        const std::string json = dir.file("out.json");
        const auto r = ended_with(
            128 + limit.signal,
            under_limit(limit.ulimit, bench(json, "calm_first,sig_case,calm_last", limit.min_ms)),
            {}, 300);
        CHECK(contains(r.err, std::string(limit.name) + " stopped the run"));
        if (limit.signal == SIGXFSZ) {  // the document did not fit: said, never claimed
            CHECK(contains(r.err, "File too large"));
            CHECK_FALSE(contains(r.err, "are in '" + json + "'"));
        } else {
            CHECK(Json::parse(read_file(json)).at("meta").at("interrupted").at("by").as_string() ==
                  "SIGXCPU");
        }
    }
}

TEST_CASE(
    "e2e hostile signals: a fault in the second case of a plain run names the case after the "
    "first one's ok") {
    auto r = run_process({fixture_path("hostile_signals_linux"), "--filter=calm_first,sig_case"},
                         {"GLINT_HOSTILE=segv", "ASAN_OPTIONS=handle_segv=0"});
    CHECK(r.term_signal == SIGSEGV);
    CHECK(
        contains(r.out, "ok    calm_first\nFAIL  sig_case: killed by SIGSEGV\n1 passed, 1 failed"));
    CHECK(contains(r.err, "glint: sig_case: killed by SIGSEGV inside the case"));
}

TEST_CASE(
    "e2e hostile signals: a case that stops itself (SIGSTOP) is ended by --case-timeout and the "
    "run exits 1") {
    TempDir dir{"glint-e2e-hostile-signals"};
    std::vector<std::string> argv = bench(dir.file("out.json"), "calm_first,sig_case,calm_last");
    argv.push_back("--case-timeout=1");
    // Stopped for ever without the fix: ended_with kills it and fails.
    const auto r = ended_with(1, argv, {"GLINT_HOSTILE=stop"});
    CHECK(contains(r.err, "'sig_case'"));
    CHECK(contains(r.err, "(--case-timeout): the run stops here"));
    CHECK(names(Json::parse(read_file(dir.file("out.json")))) ==
          std::vector<std::string>{"calm_first"});
}

TEST_CASE(
    "e2e hostile signals: a thread that cannot be created makes an error row and later cases still "
    "run") {
    TempDir dir{"glint-e2e-hostile-signals"};
    const std::string json = dir.file("out.json");
    if (sanitized_runtime()) return skip("a sanitizer's address space outgrows the limit");
    // 1 GB of address space: far fewer than 1024 threads' stacks. Status 1: a failed row.
    const auto r = ended_with(
        1, under_limit("ulimit -v 1000000", bench(json, "threads_many,calm_last")), {}, 300);
    CHECK(contains(r.out + r.err, "could not be created"));
    const Json doc = Json::parse(read_file(json));
    CHECK(names(doc) == std::vector<std::string>{"threads_many", "calm_last"});
    CHECK(doc.at("rows").as_array()[0].contains("error"));
}
