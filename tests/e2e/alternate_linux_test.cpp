// End to end: glint-compare --alternate=K on the A/B fixture. Two wrapper scripts stand for the
// two builds; each records its side in a trace file before running the fixture, so the order of
// the runs is seen from outside.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::test::BackgroundProcess;
using glint::test::compare_path;
using glint::test::contains;
using glint::test::fixture_path;
using glint::test::read_file;
using glint::test::run_process;
using glint::test::TempDir;
using glint::test::wait_until;

namespace {

// A program that appends `side` to `trace`, then runs the A/B fixture (`env`: its environment).
std::string side_program(const TempDir& dir, const std::string& side, const std::string& env = "") {
    const std::string path = dir.file(side + ".sh");
    std::ofstream(path) << "#!/bin/sh\necho " << side << " >> " << dir.file("trace") << "\n"
                        << "echo \"$@\" >> " << dir.file(side + ".args") << "\n"
                        << env << "exec " << fixture_path("ab") << " \"$@\"\n";
    chmod(path.c_str(), 0755);
    return path;
}

// The directory the final progress line names: "... per run (DIR)".
std::string named_dir(const std::string& err) {
    const auto line = err.find("alternated ");
    if (line == std::string::npos) return "";
    const auto open = err.find('(', line), close = err.find(")\n", line);
    return open == std::string::npos || close == std::string::npos
               ? ""
               : err.substr(open + 1, close - open - 1);
}

}  // namespace

TEST_CASE(
    "e2e: glint-compare --alternate runs base and new in turn, keeps the documents, compares the "
    "sides") {
    TempDir dir("glint-e2e-alternate");
    const std::string keep = dir.file("runs");
    auto r = run_process({compare_path(), "--alternate=2", "--keep=" + keep,
                          side_program(dir, "base"), side_program(dir, "new"), "--",
                          "--bench-min-time=0.05", "--filter=ab/steady"});
    INFO(r.out, r.err);
    CHECK(r.exit_code == 0);
    CHECK(read_file(dir.file("trace")) == "base\nnew\nbase\nnew\n");
    CHECK(read_file(dir.file("new.args")) ==
          "--bench --bench-repeat=3 --bench-json=" + keep +
              "/new-1.json --bench-min-time=0.05 --filter=ab/steady\n" +
              "--bench --bench-repeat=3 --bench-json=" + keep +
              "/new-2.json --bench-min-time=0.05 --filter=ab/steady\n");
    for (const char* name : {"base-1", "new-1", "base-2", "new-2"}) {
        CHECK_MESSAGE(contains(read_file(keep + "/" + name + ".json"), "\"schema\""), name);
        CHECK_MESSAGE(contains(read_file(keep + "/" + name + ".log"), "steady"),
                      name);  // the run's table
    }
    // Progress, one line a run, and the total; a note that 2 runs a side reach no 95% interval.
    for (const char* line : {"\nbase 1/2: ", "\nnew 1/2: ", "\nbase 2/2: ", "\nnew 2/2: ",
                             "\nalternated 2 runs a side in "})
        CHECK_MESSAGE(contains("\n" + r.err, line), line);
    CHECK(contains(r.err, "4 runs a side are needed"));
    CHECK(named_dir(r.err) == keep);
    // The comparison, its sides named by their runs.
    CHECK(contains(r.out, "│ ab/steady "));
    CHECK(contains(r.out, "new (2 runs) vs base (2 runs): "));
    // The kept directory is reused by the next --alternate run (--repeat=2 this time).
    r = run_process({compare_path(), "--alternate=1", "--repeat=2", "--format=json",
                     "--keep=" + keep, side_program(dir, "base"), side_program(dir, "new"), "--",
                     "--bench-min-time=0.05", "--filter=ab/steady"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "\"document\": \"new (1 run)\""));
    CHECK_FALSE(std::filesystem::exists(keep + "/base-2.json"));
    CHECK(contains(read_file(dir.file("base.args")),
                   "--bench-repeat=2 --bench-json=" + keep + "/base-1.json"));
}

TEST_CASE(
    "e2e: glint-compare --alternate removes its temporary directory, and keeps it when a run "
    "fails") {
    TempDir dir("glint-e2e-alternate");
    auto r = run_process({compare_path(), "--alternate=1", "--format=md", side_program(dir, "base"),
                          side_program(dir, "new"), "--", "--bench-min-time=0.05",
                          "--filter=ab/steady"});
    INFO(r.out, r.err);
    CHECK(r.exit_code == 0);
    const std::string temporary = named_dir(r.err);
    CHECK_FALSE(temporary.empty());
    CHECK_FALSE(std::filesystem::exists(temporary));
    // A program that fails stops the command: exit 2, naming the program and the run.
    r = run_process({compare_path(), "--alternate=2", side_program(dir, "base"), "/bin/false", "--",
                     "--bench-min-time=0.05", "--filter=ab/steady"});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "error: new run 1 of 2, '/bin/false': exited with status 1"));
    CHECK(r.out.empty());
    const auto kept = r.err.find("kept in ");
    REQUIRE(kept != std::string::npos);
    const std::string left = r.err.substr(kept + 8, r.err.find('\n', kept) - kept - 8);
    CHECK(std::filesystem::exists(left + "/base-1.json"));
    std::filesystem::remove_all(left);
    // A program that writes no document, and one that dies: exit 2 with the end of its log.
    const std::string quiet = dir.file("quiet.sh");
    std::ofstream(quiet) << "#!/bin/sh\necho 'no json here' >&2\n";
    chmod(quiet.c_str(), 0755);
    r = run_process({compare_path(), "--alternate=1", "--keep=" + dir.file("q"), quiet, quiet});
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "base run 1 of 1"));
    CHECK(contains(r.err, "wrote no document"));
    CHECK(contains(r.err, "    no json here\n"));
    // Bad input runs nothing.
    r = run_process({compare_path(), "--alternate=2", side_program(dir, "base"),
                     side_program(dir, "new"), "--", "--bench-json=x.json"});
    CHECK(r.exit_code == 2);
    CHECK(read_file(dir.file("trace")) == "base\nnew\nbase\n");  // the runs above, none more
}

TEST_CASE("e2e: glint-compare --alternate gates: a build 30% slower fails --fail-if-slower=10") {
    TempDir dir("glint-e2e-alternate");
    // 8 runs a side: their interval drops the most extreme run-to-run ratios, so one run that
    // a loaded machine disturbed cannot turn "failed" into "could not judge".
    auto r = run_process(
        {compare_path(), "--alternate=8", "--repeat=5", "--fail-if-slower=10",
         side_program(dir, "base"),
         side_program(dir, "new", "GLINT_FIXTURE_SLOWER=30 export GLINT_FIXTURE_SLOWER\n"), "--",
         "--bench-min-time=0.05", "--filter=ab/changing"});
    INFO(r.out, r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.out, "FAILED"));
    CHECK(contains(r.out, "ab/changing"));
}

TEST_CASE(
    "e2e: glint-compare --alternate gates: an A/A pair passes --fail-if-slower=10 (on a quiet "
    "machine)") {
    TempDir dir("glint-e2e-alternate");
    // The same program on both sides: 8 alternated runs a side judge the row within the gate
    // (threshold 10%, as wide as the gate: a loaded machine moves this case by a few percent).
    auto r = run_process({compare_path(), "--alternate=8", "--threshold=10", "--fail-if-slower=10",
                          side_program(dir, "base"), side_program(dir, "new"), "--",
                          "--bench-min-time=0.05", "--filter=ab/changing"});
    INFO(r.out, r.err);
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "new (8 runs) vs base (8 runs): "));
    CHECK(contains(r.out, "--fail-if-slower=10.0%: passed: 1 row(s) judged"));
}

TEST_CASE(
    "e2e: glint-compare --alternate passes an interrupt on to the running program and ends by it") {
    TempDir dir("glint-e2e-alternate");
    const std::string slow = dir.file("slow.sh"), pid_file = dir.file("pid");
    std::ofstream(slow) << "#!/bin/sh\necho $$ > " << pid_file << ".new && mv " << pid_file
                        << ".new " << pid_file << "\nexec sleep 60\n";
    chmod(slow.c_str(), 0755);
    BackgroundProcess compare(
        {compare_path(), "--alternate=4", "--keep=" + dir.file("runs"), slow, slow});
    REQUIRE(wait_until([&] { return std::filesystem::exists(pid_file); }));
    const int program = std::stoi(read_file(pid_file));
    ::kill(compare.pid(), SIGTERM);
    const auto r = compare.wait(60);
    CHECK(r.term_signal == SIGTERM);
    CHECK(contains(r.err,
                   "SIGTERM during base run 1 of 4: stopped; what ran is in " + dir.file("runs")));
    const bool alive = ::kill(program, 0) == 0;  // the program was sent SIGTERM and reaped
    CHECK_FALSE(alive);
    if (alive) ::kill(program, SIGKILL);
}
