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
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::BackgroundProcess;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::TempDir;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;  // the sanitizers reserve more address space than a limit allows
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

// argv run by sh after `limit` (a ulimit command), through exec: the limit is the run's own.
std::vector<std::string> limited(const std::string& limit, std::vector<std::string> argv) {
    std::vector<std::string> out{"/bin/sh", "-c", limit + " && exec \"$0\" \"$@\""};
    out.insert(out.end(), argv.begin(), argv.end());
    return out;
}

std::vector<std::string> bench(const std::string& json, const std::string& filter) {
    return {fixture_path("hostile_signals_linux"), "--bench", "--bench-min-time=0.05",
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
        BackgroundProcess run(bench(json, "calm_first,sig_case,calm_last"),
                              {std::string("GLINT_HOSTILE=") + p.action});
        const auto r = run.wait(120);
        INFO(r.err);
        CHECK(r.term_signal == 0);
        CHECK(r.exit_code == 128 + p.signal);
        CHECK(contains(r.err, p.name));
        CHECK(contains(r.err, "sig_case"));
        const Json doc = Json::parse(read_file(json));
        CHECK(doc.at("meta").at("interrupted").at("by").as_string() == p.name);
        CHECK(doc.at("meta").at("interrupted").at("duringCase").as_string() == "sig_case");
        CHECK(names(doc) == std::vector<std::string>{"calm_first"});
    }
}

TEST_CASE(
    "e2e hostile signals: a CPU-time limit (SIGXCPU) stops the run with a line, a document and "
    "status 152") {
    TempDir dir{"glint-e2e-hostile-signals"};
    const std::string json = dir.file("out.json");
    std::vector<std::string> argv = bench(json, "calm_first,sig_case");
    argv[2] = "--bench-min-time=100";  // 100 ms samples: far more CPU than the limit allows
    BackgroundProcess run(limited("ulimit -S -t 1", argv));
    const auto r = run.wait(300);
    INFO(r.err);
    CHECK(r.term_signal == 0);
    CHECK(r.exit_code == 128 + SIGXCPU);
    CHECK(contains(r.err, "SIGXCPU"));
    const Json doc = Json::parse(read_file(json));
    CHECK(doc.at("meta").at("interrupted").at("by").as_string() == "SIGXCPU");
}

TEST_CASE(
    "e2e hostile signals: a file-size limit (SIGXFSZ) stops the run with a line naming the signal "
    "and status 153, and says the document could not be written") {
    TempDir dir{"glint-e2e-hostile-signals"};
    const std::string json = dir.file("out.json");
    // 8 blocks: the journal's first lines fit, the rows and the document do not.
    BackgroundProcess run(limited("ulimit -f 8", bench(json, "calm_first,sig_case,calm_last")));
    const auto r = run.wait(120);
    INFO(r.err);
    CHECK(r.term_signal == 0);
    CHECK(r.exit_code == 128 + SIGXFSZ);
    CHECK(contains(r.err, "SIGXFSZ stopped the run"));
    CHECK(contains(r.err, "File too large"));
    CHECK_FALSE(contains(r.err, "are in '" + json + "'"));
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
    const std::string json = dir.file("out.json");
    std::vector<std::string> argv = bench(json, "calm_first,sig_case,calm_last");
    argv.push_back("--case-timeout=1");
    BackgroundProcess run(argv, {"GLINT_HOSTILE=stop"});
    const auto r = run.wait(120);  // stopped for ever without the fix: killed here
    INFO(r.err);
    CHECK(r.term_signal == 0);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "sig_case"));
    CHECK(contains(r.err, "--case-timeout"));
    const Json doc = Json::parse(read_file(json));
    CHECK(names(doc) == std::vector<std::string>{"calm_first"});
}

TEST_CASE(
    "e2e hostile signals: a thread that cannot be created makes an error row and later cases still "
    "run") {
    if (kSanitized) return glint::test::skip("a sanitizer's address space outgrows the limit");
    TempDir dir{"glint-e2e-hostile-signals"};
    const std::string json = dir.file("out.json");
    // 1 GB of address space: far fewer than 1024 threads' stacks.
    BackgroundProcess run(limited("ulimit -v 1000000", bench(json, "threads_many,calm_last")));
    const auto r = run.wait(300);
    INFO(r.err);
    CHECK(r.term_signal == 0);
    CHECK(r.exit_code == 1);  // a failed row
    CHECK(contains(r.out + r.err, "could not be created"));
    const Json doc = Json::parse(read_file(json));
    CHECK(names(doc) == std::vector<std::string>{"threads_many", "calm_last"});
    CHECK(doc.at("rows").as_array()[0].contains("error"));
}
