// os::run_program: a program run to its end without a shell, its output in a log.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "os/program.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

using glint::os::is_executable;
using glint::os::run_program;
using glint::test::read_file;
using glint::test::TempDir;

TEST_CASE("run_program: exit status, signal, and stdout and stderr in one log") {
    TempDir dir("glint-unit-program");
    const std::string log = dir.file("run.log");
    auto end = run_program({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, log);
    CHECK(end.started);
    CHECK(end.exit_code == 3);
    CHECK(end.signal == 0);
    CHECK(read_file(log) == "out\nerr\n");
    // The arguments reach the program unchanged (no shell).
    const std::string args = dir.file("args.log");
    end = run_program({"/bin/sh", "-c", "printf '%s|' \"$@\"", "sh", "a b", "$HOME", "*"}, args);
    CHECK(end.exit_code == 0);
    CHECK(read_file(args) == "a b|$HOME|*|");
    // Its standard input is empty (the null device): a program that reads it does not wait.
    end = run_program({"/bin/sh", "-c", "cat; echo done"}, dir.file("cat.log"));
    CHECK(read_file(dir.file("cat.log")) == "done\n");
    end = run_program({"/bin/sh", "-c", "kill -TERM $$"}, dir.file("kill.log"));
    CHECK(end.started);
    CHECK(end.signal == 15);
    CHECK(end.problem == "killed by SIGTERM");
    end = run_program({dir.file("missing")}, dir.file("missing.log"));
    CHECK_FALSE(end.started);
    CHECK(end.problem.find("cannot start") == 0);
}

TEST_CASE(
    "hostile: run_program creates its log new: an existing file or a planted symlink there is "
    "refused, and nothing is written through it") {
    TempDir dir("glint-unit-program");
    const std::string victim = dir.file("victim");
    std::ofstream(victim) << "secret";
    const std::string link = dir.file("new-2.log");
    REQUIRE(symlink(victim.c_str(), link.c_str()) == 0);
    auto end = run_program({"/bin/sh", "-c", "echo overwritten"}, link);
    CHECK_FALSE(end.started);
    CHECK(end.problem == "cannot create the log '" + link + "': File exists");
    CHECK(read_file(victim) == "secret");
    end = run_program({"/bin/sh", "-c", "echo overwritten"}, victim);
    CHECK_FALSE(end.started);
    CHECK(read_file(victim) == "secret");
}

TEST_CASE("is_executable: a regular file with execute permission") {
    TempDir dir("glint-unit-program");
    std::string why;
    CHECK(is_executable("/bin/sh", why));
    CHECK_FALSE(is_executable(dir.path.string(), why));
    CHECK(why == "a directory, not a program");
    const std::string plain = dir.file("plain");
    std::ofstream(plain) << "#!/bin/sh\n";
    CHECK_FALSE(is_executable(plain, why));
    CHECK(why.find("not executable") == 0);
    chmod(plain.c_str(), 0755);
    CHECK(is_executable(plain, why));
    CHECK_FALSE(is_executable(dir.file("missing"), why));
    CHECK(why == "No such file or directory");
}
