// End to end: every phase of a run can be stopped, inherited ignores are kept, and a case's
// own processes end with it (engine/runner/keeping/run_guard.hpp, os/process.hpp). Each test bounds
// its own time: BackgroundProcess::wait kills the run (SIGKILL) when it outlives its limit.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>

#include <fstream>
#include <string>

#include "engine/model/json.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::BackgroundProcess;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::TempDir;
using glint::test::wait_until;

TEST_CASE(
    "e2e stop: a FIFO with no reader as --bench-json is waited for 10 s, then the run fails saying "
    "so") {
    TempDir dir{"glint-e2e-stop"};
    const std::string fifo = dir.file("fifo");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    BackgroundProcess run(
        {fixture_path("stopping"), "--bench", "--bench-min-time=0.1", "--bench-json=" + fifo});
    const auto r = run.wait(60);  // an open() that blocks for ever is killed here
    CHECK(r.term_signal == 0);
    CHECK(r.exit_code == 1);
    CHECK(contains(
        r.err,
        "--bench-json: cannot write '" + fifo +
            "': no process opened the FIFO for reading within 10 s (start its reader first)"));
}

TEST_CASE(
    "e2e stop: signals after the cases, while the output is still being written, end the run at "
    "once") {
    TempDir dir{"glint-e2e-stop"};
    const std::string fifo = dir.file("fifo");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    BackgroundProcess run(
        {fixture_path("stopping"), "--bench", "--bench-min-time=0.1", "--bench-json=" + fifo});
    REQUIRE(wait_until([&] { return contains(run.out(), "╰"); }));  // the cases are over
    REQUIRE(kill(run.pid(), SIGINT) == 0);
    REQUIRE(kill(run.pid(), SIGTERM) == 0);
    const auto r = run.wait(60);
    INFO(r.err);
    // 128 + the signal that stopped it: SIGINT, or SIGTERM when the supervising parent's
    // forwarding reached the run in the other order (seen once, in the loaded sanitizer tree).
    CHECK((r.exit_code == 130 || r.exit_code == 143));
    CHECK(contains(r.err, "the run stops now"));
    CHECK_FALSE(contains(r.err, "no process opened the FIFO"));  // not waited for
}

TEST_CASE("e2e stop: SIGHUP and SIGINT ignored by whoever started the run (nohup) stay ignored") {
    // With the supervising parent (it must not pass them on) and without it (glint's handlers
    // must not replace the ignores).
    for (const std::string supervise : {"GLINT_SUPERVISE=1", "GLINT_SUPERVISE=0"}) {
        CAPTURE(supervise);
        TempDir dir{"glint-e2e-stop"};
        const std::string json = dir.file("out.json");
        // sh sets the ignores and exec keeps them, as nohup and a script's background job do.
        BackgroundProcess run({"/bin/sh", "-c", "trap '' HUP INT; exec \"$0\" \"$@\"",
                               fixture_path("slow"), "--bench", "--bench-json=" + json},
                              {supervise});
        REQUIRE(
            wait_until([&] { return contains(run.out(), "protocol:"); }));  // handlers are in place
        REQUIRE(kill(run.pid(), SIGHUP) == 0);
        REQUIRE(kill(run.pid(), SIGINT) == 0);
        const auto r = run.wait(120);
        CHECK(r.exit_code == 0);
        const Json doc = Json::parse(read_file(json));
        CHECK_FALSE(doc.at("meta").contains("interrupted"));
        CHECK(doc.at("rows").size() == 10);
    }
}

namespace {

// Whether `pid` is a process that has not ended (a zombie has).
bool running(int pid) {
    const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    const auto paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
}

}  // namespace

TEST_CASE("e2e stop: --isolate ends the processes a case started with the case") {
    TempDir dir{"glint-e2e-stop"};
    const std::string pidfile = dir.file("grandchild.pid");
    BackgroundProcess run({fixture_path("stopping"), "--bench", "--isolate", "--case-timeout=1",
                           "--bench-min-time=0.1"},
                          {"GLINT_STOP=fork-hang", "GLINT_STOP_PIDFILE=" + pidfile});
    const auto r = run.wait(60);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "timeout after 1 s"));
    const std::string text = read_file(pidfile);
    REQUIRE_FALSE(text.empty());
    const int grandchild = std::stoi(text);
    const bool ended = wait_until([&] { return !running(grandchild); }, 10);
    CHECK(ended);
    if (!ended) kill(grandchild, SIGKILL);  // left behind: the test cleans up
}

TEST_CASE(
    "e2e stop: a case that closes glint's pipe under --isolate is named as such, not as exit(0)") {
    const std::string why = "the case closed glint's pipe to the runner";
    auto bench =
        run_process({fixture_path("stopping"), "--bench", "--isolate", "--bench-min-time=0.1"},
                    {"GLINT_STOP=close-fds"});
    CHECK(bench.exit_code == 1);
    CHECK(contains(bench.err, "glint: quick: " + why));
    CHECK_FALSE(contains(bench.out + bench.err, "exit(0) inside the case"));
    auto plain = run_process({fixture_path("stopping"), "--isolate"}, {"GLINT_STOP=close-fds"});
    CHECK(plain.exit_code == 1);
    CHECK(contains(plain.out, "FAIL  quick: " + why));
}

TEST_CASE(
    "e2e stop: a fatal signal in another thread outside any case says so, not 'during null'") {
    TempDir dir{"glint-e2e-stop"};
    const std::string fifo = dir.file("fifo");  // no reader: the run waits 10 s after its cases
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const std::string trigger = dir.file("segfault-now");
    BackgroundProcess run(
        {fixture_path("stopping"), "--bench", "--bench-min-time=0.1", "--bench-json=" + fifo},
        {"GLINT_STOP=thread-segv", "GLINT_STOP_TRIGGER=" + trigger, "ASAN_OPTIONS=handle_segv=0"});
    REQUIRE(wait_until([&] { return contains(run.out(), "╰"); }));  // the cases are over
    { std::ofstream{trigger}; }
    const auto r = run.wait(60);
    CHECK(r.term_signal == SIGSEGV);
    CHECK(contains(r.err, "glint: error: the run was killed by SIGSEGV outside any case"));
    CHECK_FALSE(contains(r.err, "during null"));
}

TEST_CASE("e2e stop: --case-timeout ends a plain run whose case hangs, naming it") {
    BackgroundProcess run({fixture_path("stopping"), "--case-timeout=1"}, {"GLINT_STOP=hang"});
    const auto r = run.wait(60);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "FAIL  quick: timeout after 1 s (--case-timeout)\n0 passed, 1 failed\n"));
    CHECK(contains(r.err,
                   "glint: quick: still running after 1 s (--case-timeout): the run stops here"));
}

TEST_CASE(
    "e2e stop: an interrupted --bench-repeat keeps each case's finished repetitions, marked "
    "partial") {
    TempDir dir{"glint-e2e-stop"};
    const std::string json = dir.file("out.json");
    BackgroundProcess run(
        {fixture_path("slow"), "--bench", "--bench-repeat=3", "--bench-json=" + json});
    REQUIRE(wait_until([&] { return contains(run.err(), "repetition 2 of 3"); },
                       60));  // the first is whole
    REQUIRE(kill(run.pid(), SIGINT) == 0);
    const auto r = run.wait(60);
    CHECK(r.exit_code == 130);
    const Json doc = Json::parse(read_file(json));
    const auto& rows = doc.at("rows").as_array();
    CHECK(rows.size() == 10);  // every case of the first repetition
    for (const auto& row : rows) {
        CAPTURE(row.at("name").as_string());
        const Json& partial = row.at("partialRepetitions");
        CHECK(partial.at("of").as_number() == 3);
        const double done = partial.at("done").as_number();
        CHECK((done == 1 || done == 2));
        CHECK(row.at("repetitionMediansNs").size() == static_cast<std::size_t>(done));
    }
    const Json& interrupted = doc.at("meta").at("interrupted");
    CHECK(interrupted.at("finishedRows").as_number() == 0);
    const Json* partial_rows = interrupted.find("partialRows");
    REQUIRE(partial_rows);
    CHECK(partial_rows->as_number() == 10);
    CHECK(contains(r.out, "partial: slow_1: "));  // under the table
    CHECK(contains(r.out, " of 3 repetitions (--bench-repeat was interrupted)"));
    CHECK(contains(
        r.err,
        "0 finished rows and 10 partial rows (--bench-repeat: not every repetition ran) are in '" +
            json + "'"));
}

TEST_CASE(
    "e2e stop: _exit(0) inside a case fails the run, naming the case, in plain and --bench runs") {
    auto plain = run_process({fixture_path("stopping")}, {"GLINT_STOP=_exit"});
    CHECK(plain.exit_code == 1);
    CHECK(contains(plain.err,
                   "glint: error: the run exited with status 0 before it finished, during 'quick': "
                   "something called _exit()"));
    CHECK_FALSE(contains(plain.out, "passed"));

    TempDir dir{"glint-e2e-stop"};
    const std::string json = dir.file("out.json");
    auto bench = run_process(
        {fixture_path("stopping"), "--bench", "--bench-min-time=0.1", "--bench-json=" + json},
        {"GLINT_STOP=_exit"});
    CHECK(bench.exit_code == 1);
    CHECK(contains(bench.err, "before it finished, during 'quick'"));
    CHECK(contains(bench.err,
                   "its finished rows are in the journal '" + dir.file("out.json.journal.")));
}

TEST_CASE(
    "e2e stop: GLINT_SUPERVISE=0 runs without the supervising parent (and cannot see _exit(0))") {
    auto r = run_process({fixture_path("stopping")}, {"GLINT_STOP=_exit", "GLINT_SUPERVISE=0"});
    CHECK(r.exit_code == 0);
    CHECK_FALSE(contains(r.err, "before it finished"));
    auto fine = run_process({fixture_path("stopping")});
    CHECK(fine.exit_code == 0);
    CHECK(contains(fine.out, "2 passed, 0 failed"));
}
