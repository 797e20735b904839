// End to end: a run keeps what it measured when a case crashes, exits, hangs, or the run is
// signalled or killed (engine/runner/keeping/run_guard.hpp, isolation/isolated_run.hpp,
// run_record.hpp).
#include <doctest/doctest.h>

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "engine/model/json.hpp"
#include "os/process.hpp"
#include "support/process.hpp"

#include "support/device_node.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"

using glint::engine::Json;
using glint::test::BackgroundProcess;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::wait_until;
namespace fs = std::filesystem;
using glint::test::make_char_device;
using glint::test::TempDir;

namespace {

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// name -> error ("" for a measured row), in order.
std::vector<std::pair<std::string, std::string>> row_summary(const Json& doc) {
    std::vector<std::pair<std::string, std::string>> rows;
    for (const auto& row : doc.at("rows").as_array()) {
        const Json* error = row.find("error");
        rows.emplace_back(row.at("name").as_string(), error ? error->as_string() : "");
        if (!error) CHECK(row.at("medianNs").is_number());  // a measured row is whole
    }
    return rows;
}

using Rows = std::vector<std::pair<std::string, std::string>>;

// The journal of `json` (the run in progress holds one beside its target).
std::string journal_of(const TempDir& dir, const std::string& json) {
    const std::string prefix = fs::path(json).filename().string() + ".journal.";
    for (const auto& e : dir.entries())
        if (e.rfind(prefix, 0) == 0) return dir.file(e);
    return "";
}

// Waits until the run's journal holds a finished row.
bool first_row_journaled(const TempDir& dir, const std::string& json) {
    return wait_until([&] {
        const std::string journal = journal_of(dir, json);
        return !journal.empty() && contains(read_file(journal), "{\"row\": ");
    });
}

}  // namespace

TEST_CASE(
    "e2e keep: under --isolate, cases that segfault, abort, exit(0) or hang become error rows and "
    "the rest is kept") {
    TempDir dir{"glint-e2e-keep"};
    const std::string json = dir.file("out.json");
    auto r = run_process({fixture_path("crashing"), "--bench", "--isolate", "--case-timeout=1",
                          "--bench-min-time=0.1", "--bench-json=" + json},
                         {"GLINT_CRASH=segv,abort,exit,hang,case-segv"});
    CHECK(r.exit_code == 1);
    const Json doc = Json::parse(read_file(json));
    CHECK(row_summary(doc) == Rows{{"keep_before", ""},
                                   {"crash_segv", "killed by SIGSEGV"},
                                   {"crash_abort", "killed by SIGABRT"},
                                   {"crash_exit", "exit(0) inside the case"},
                                   {"crash_hang", "timeout after 1 s"},
                                   {"keep_after", ""},
                                   {"ok_first", ""},
                                   {"crash_case", "killed by SIGSEGV"},
                                   {"ok_last", ""}});
    CHECK_FALSE(doc.at("meta").contains("interrupted"));
    for (const char* shown :
         {"keep_before", "keep_after", "matrix/ok_first [kind=ok]", "matrix/ok_last [kind=ok]",
          "killed by SIGSEGV", "killed by SIGABRT", "exit(0) inside the case", "timeout after 1 s"})
        CHECK(contains(r.out, shown));
    CHECK(contains(r.err, "glint: crash_hang: timeout after 1 s"));
    CHECK(dir.entries() == std::vector<std::string>{"out.json"});  // no journal, no temporary file
}

TEST_CASE(
    "e2e keep: without --isolate, exit(0) inside a case keeps the rows before it and fails the "
    "run") {
    TempDir dir{"glint-e2e-keep"};
    const std::string json = dir.file("out.json");
    auto r = run_process(
        {fixture_path("crashing"), "--bench", "--bench-min-time=0.1", "--bench-json=" + json},
        {"GLINT_CRASH=exit"});
    CHECK(r.exit_code == 1);
    const Json doc = Json::parse(read_file(json));
    CHECK(row_summary(doc) == Rows{{"keep_before", ""}, {"crash_segv", ""}, {"crash_abort", ""}});
    const Json& interrupted = doc.at("meta").at("interrupted");
    CHECK(interrupted.at("by").as_string() == "exit(0)");
    CHECK(interrupted.at("duringCase").as_string() == "crash_exit");
    CHECK(interrupted.at("finishedRows").as_number() == 3);
    CHECK(contains(r.err, "'crash_exit' called exit(0)"));
    CHECK(contains(r.out, "crash_abort"));  // the table's group was ended with its rows
    CHECK(dir.entries() == std::vector<std::string>{"out.json"});
}

TEST_CASE(
    "e2e keep: without --isolate, a segfault writes the finished rows before the process dies by "
    "it") {
    TempDir dir{"glint-e2e-keep"};
    const std::string json = dir.file("out.json");
    auto r = run_process(
        {fixture_path("crashing"), "--bench", "--bench-min-time=0.1", "--bench-json=" + json},
        {"GLINT_CRASH=segv", "ASAN_OPTIONS=handle_segv=0"});
    CHECK(r.term_signal == SIGSEGV);
    const Json doc = Json::parse(read_file(json));
    CHECK(row_summary(doc) == Rows{{"keep_before", ""}});
    CHECK(doc.at("meta").at("interrupted").at("by").as_string() == "SIGSEGV");
    CHECK(doc.at("meta").at("interrupted").at("duringCase").as_string() == "crash_segv");
    CHECK(doc.at("meta").at("interrupted").at("duringCaseLabels") == Json::object());
    CHECK(contains(r.err, "killed by SIGSEGV during \"crash_segv\""));
}

TEST_CASE("e2e keep: the case in flight is named with its labels, in JSON and on stderr") {
    TempDir dir{"glint-e2e-keep"};
    const std::string json = dir.file("out.json");
    auto r = run_process(
        {fixture_path("crashing"), "--bench", "--bench-min-time=0.1", "--bench-json=" + json},
        {"GLINT_CRASH=case-segv", "ASAN_OPTIONS=handle_segv=0"});
    CHECK(r.term_signal == SIGSEGV);
    const Json doc = Json::parse(read_file(json));
    const Json& interrupted = doc.at("meta").at("interrupted");
    CHECK(interrupted.at("duringCase").as_string() == "crash_case");
    CHECK(interrupted.at("duringCaseLabels") == Json::parse(R"({"kind": "bad"})"));
    CHECK(contains(r.err, "killed by SIGSEGV during \"crash_case\" [kind=bad]"));
    // The rows before it are kept, the labelled one before it among them.
    bool ok_first = false;
    for (const auto& row : doc.at("rows").as_array())
        ok_first |= row.at("name").as_string() == "ok_first";
    CHECK(ok_first);
}

TEST_CASE(
    "e2e keep: without --isolate, a case past --case-timeout ends the run and names the case") {
    TempDir dir{"glint-e2e-keep"};
    const std::string json = dir.file("out.json");
    auto r = run_process({fixture_path("crashing"), "--bench", "--bench-min-time=0.1",
                          "--case-timeout=1", "--bench-json=" + json},
                         {"GLINT_CRASH=hang"});
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "'crash_hang' is still running after 1 s (--case-timeout)"));
    const Json doc = Json::parse(read_file(json));
    CHECK(row_summary(doc).size() == 4);
    CHECK(doc.at("meta").at("interrupted").at("by").as_string() == "case-timeout");
    CHECK(contains(r.out, "crash_exit"));
}

TEST_CASE(
    "e2e keep: SIGINT, SIGTERM, SIGHUP and SIGPIPE during a run leave a valid JSON with the "
    "finished rows") {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
        CAPTURE(sig);
        TempDir dir{"glint-e2e-keep"};
        const std::string json = dir.file("out.json");
        BackgroundProcess run({fixture_path("slow"), "--bench", "--bench-json=" + json});
        REQUIRE(first_row_journaled(dir, json));
        REQUIRE(kill(run.pid(), sig) == 0);
        const auto r = run.wait();
        CHECK(r.exit_code == 128 + sig);
        const Json doc = Json::parse(read_file(json));
        const auto rows = row_summary(doc);
        REQUIRE(rows.size() >= 1);
        CHECK(rows.size() < 10);  // stopped early
        CHECK(rows[0] == std::pair<std::string, std::string>{"slow_1", ""});
        const Json& interrupted = doc.at("meta").at("interrupted");
        CHECK(interrupted.at("by").as_string() == glint::os::signal_name(sig));
        CHECK(interrupted.at("finishedRows").as_number() == static_cast<double>(rows.size()));
        CHECK(contains(r.out, "slow_1"));  // the table's group in progress was ended
        CHECK(dir.entries() == std::vector<std::string>{"out.json"});
    }
}

TEST_CASE(
    "e2e keep: an interrupted --group-by run shows the rows it held for groups that did not come") {
    TempDir dir{"glint-e2e-keep"};
    const std::string json = dir.file("out.json");
    BackgroundProcess run(
        {fixture_path("slow"), "--bench", "--group-by=all", "--bench-json=" + json});
    REQUIRE(first_row_journaled(dir, json));
    REQUIRE(kill(run.pid(), SIGINT) == 0);
    const auto r = run.wait();
    CHECK(r.exit_code == 130);
    CHECK(contains(r.out, "╼ measured before the stop ╾"));
    CHECK(contains(r.out, "│ slow_1 "));
}

TEST_CASE("e2e keep: a closed standard output stops the run with 141 and keeps its rows") {
    TempDir dir{"glint-e2e-keep"};
    const std::string json = dir.file("out.json");
    BackgroundProcess run({fixture_path("slow"), "--bench", "--bench-json=" + json});
    REQUIRE(wait_until([&] { return contains(run.out(), "protocol:"); }));  // the header is out
    run.close_stdout();
    const auto r = run.wait();
    CHECK(r.exit_code == 141);
    const Json doc = Json::parse(read_file(json));
    CHECK(row_summary(doc).size() >= 8);  // the first table was measured before its write failed
    CHECK(doc.at("meta").at("interrupted").at("by").as_string() == "SIGPIPE");
}

TEST_CASE("e2e keep: the journal of a run killed with SIGKILL recovers its finished rows") {
    TempDir dir{"glint-e2e-keep"};
    const std::string json = dir.file("out.json");
    {
        BackgroundProcess run({fixture_path("slow"), "--bench", "--bench-json=" + json});
        REQUIRE(first_row_journaled(dir, json));
        kill(run.pid(), SIGKILL);
        CHECK(run.wait().term_signal == SIGKILL);
    }
    const std::string journal = journal_of(dir, json);
    REQUIRE_FALSE(journal.empty());
    CHECK_FALSE(fs::exists(json));

    // The next run writing the same target names the journal.
    auto next =
        run_process({fixture_path("slow"), "--bench", "--filter=later", "--bench-json=" + json});
    CHECK(next.exit_code == 0);
    CHECK(contains(next.err, "was killed before it finished"));
    CHECK(contains(next.err, "--recover-journal=" + journal));

    const std::string recovered = dir.file("recovered.json");
    auto r = run_process(
        {fixture_path("slow"), "--recover-journal=" + journal, "--bench-json=" + recovered});
    CHECK(r.exit_code == 0);
    const Json doc = Json::parse(read_file(recovered));
    const auto rows = row_summary(doc);
    REQUIRE(rows.size() >= 1);
    CHECK(rows[0].first == "slow_1");
    CHECK(doc.at("meta").at("interrupted").at("by").as_string() ==
          "unknown (recovered from a journal)");
    CHECK(doc.at("meta").at("interrupted").at("journal").as_string() == journal);
    CHECK(contains(r.err, "recovered " + std::to_string(rows.size()) + " row"));

    auto bad = run_process({fixture_path("slow"), "--recover-journal=" + json});
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "is not a glint journal"));
}

TEST_CASE("e2e keep: a character device given as --bench-json stays what it is") {
    TempDir dir{"glint-e2e-keep"};
    std::string why;
    const auto device = make_char_device(dir, glint::test::kNullDevice, why);
    if (!device) return glint::test::skip(why);
    auto r = run_process(
        {fixture_path("basic"), "--bench", "--bench-min-time=0.1", "--bench-json=" + *device});
    CHECK(r.exit_code == 0);
    struct stat st {};
    REQUIRE(lstat(device->c_str(), &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
    CHECK(st.st_rdev == makedev(1, 3));
    CHECK(dir.entries() == std::vector<std::string>{"null"});  // nothing created beside it
}

TEST_CASE("e2e keep: a FIFO given as --bench-json stays what it is") {
    TempDir dir{"glint-e2e-keep"};
    const std::string fifo = dir.file("fifo");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = read_file(fifo); });  // blocks until the run opens it
    auto r = run_process(
        {fixture_path("basic"), "--bench", "--bench-min-time=0.1", "--bench-json=" + fifo});
    reader.join();
    CHECK(r.exit_code == 0);
    CHECK(Json::parse(received).at("rows").size() == 7);
    struct stat st {};
    REQUIRE(lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
    CHECK(dir.entries() == std::vector<std::string>{"fifo"});  // nothing created beside it
}

TEST_CASE("e2e keep: a symlink given as --bench-json writes its target and stays a link") {
    TempDir dir{"glint-e2e-keep"};
    fs::create_symlink("real.json", dir.path / "latest.json");
    auto r = run_process({fixture_path("basic"), "--bench", "--bench-min-time=0.1",
                          "--bench-json=" + dir.file("latest.json")});
    CHECK(r.exit_code == 0);
    CHECK(fs::is_symlink(dir.path / "latest.json"));
    CHECK(Json::parse(read_file(dir.file("real.json"))).at("rows").size() == 7);
}

TEST_CASE("e2e keep: two runs writing the same JSON path at once leave a whole document") {
    TempDir dir{"glint-e2e-keep"};
    const std::string json = dir.file("shared.json");
    BackgroundProcess a(
        {fixture_path("basic"), "--bench", "--bench-min-time=0.1", "--bench-json=" + json});
    BackgroundProcess b(
        {fixture_path("basic"), "--bench", "--bench-min-time=0.1", "--bench-json=" + json});
    CHECK(a.wait().exit_code == 0);
    CHECK(b.wait().exit_code == 0);
    CHECK(Json::parse(read_file(json)).at("rows").size() == 7);
    CHECK(dir.entries() == std::vector<std::string>{"shared.json"});
}

TEST_CASE("e2e keep: outputs that cannot be written are found before measuring") {
    TempDir dir{"glint-e2e-keep"};
    // Its directory is writable, but not its temporary sibling's name (NAME_MAX is 255), for root
    // too.
    const std::string longest = dir.file(std::string(250, 'n'));
    auto proc = run_process({fixture_path("basic"), "--bench", "--bench-json=" + longest});
    CHECK(proc.exit_code == 2);
    CHECK(proc.err == "glint: error: --bench-json: cannot write '" + longest +
                          "': cannot create a file in '" + dir.path.string() +
                          "': File name too long\n");
    CHECK(proc.out.empty());
    CHECK(dir.entries().empty());
}

TEST_CASE("e2e keep: an output device that refuses every write fails the run") {
    TempDir dir{"glint-e2e-keep"};
    std::string why;
    const auto device = make_char_device(dir, glint::test::kFullDevice, why);
    if (!device) return glint::test::skip(why);
    auto full = run_process(
        {fixture_path("basic"), "--bench", "--bench-min-time=0.1", "--bench-json=" + *device});
    CHECK(full.exit_code == 1);
    CHECK(contains(full.err,
                   "--bench-json: cannot write '" + *device + "': No space left on device"));
    BackgroundProcess table({fixture_path("basic"), "--bench", "--bench-min-time=0.1"}, {},
                            *device);
    const auto t = table.wait();
    CHECK(t.exit_code == 1);
    CHECK(contains(
        t.err, "the table could not be written to the standard output: No space left on device"));
    struct stat st {};
    REQUIRE(lstat(device->c_str(), &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
    CHECK(dir.entries() == std::vector<std::string>{"full"});  // no journal, no temporary beside it
}

TEST_CASE("e2e keep: a baseline that is a FIFO or a device is refused at once") {
    TempDir dir{"glint-e2e-keep"};
    const std::string fifo = dir.file("fifo");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    auto r = run_process({fixture_path("basic"), "--bench", "--bench-baseline=" + fifo});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "glint: error: --bench-baseline: '" + fifo +
                       "' is a FIFO (named pipe), not a regular file\n");
    std::string why;
    const auto device = glint::test::make_char_device(dir, glint::test::kNullDevice, why);
    if (!device) return glint::test::skip(why);
    auto refused = run_process({fixture_path("basic"), "--bench", "--bench-baseline=" + *device});
    CHECK(refused.exit_code == 2);
    CHECK(contains(refused.err, "'" + *device + "' is a character device, not a regular file"));
}

TEST_CASE(
    "e2e keep: the plain run fails a case that calls exit(0), and under --isolate goes on past "
    "crashes") {
    auto in_process = run_process({fixture_path("crashing")}, {"GLINT_CRASH=exit"});
    CHECK(in_process.exit_code == 1);
    CHECK(contains(
        in_process.out,
        "ok    crash_abort\nFAIL  crash_exit: exit(0) inside the case\n3 passed, 1 failed\n"));
    auto isolated = run_process({fixture_path("crashing"), "--isolate", "--case-timeout=1"},
                                {"GLINT_CRASH=segv,abort,exit,hang,case-segv"});
    CHECK(isolated.exit_code == 1);
    CHECK(isolated.out ==
          "ok    keep_before\n"
          "FAIL  crash_segv: killed by SIGSEGV\n"
          "FAIL  crash_abort: killed by SIGABRT\n"
          "FAIL  crash_exit: exit(0) inside the case\n"
          "FAIL  crash_hang: timeout after 1 s\n"
          "ok    keep_after\n"
          "ok    matrix/ok_first [kind=ok]\n"  // test mode names each case with its labels
          "FAIL  matrix/crash_case [kind=bad]: killed by SIGSEGV\n"
          "ok    matrix/ok_last [kind=ok]\n"
          "4 passed, 5 failed\n");
    auto fine = run_process({fixture_path("crashing"), "--isolate"});
    CHECK(fine.exit_code == 0);
    CHECK(contains(fine.out, "9 passed, 0 failed"));
}
