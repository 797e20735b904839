// os::run_program: a program run to its end without a shell, its output in a log.
#include <doctest/doctest.h>

#include <sys/stat.h>

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
    // The log is truncated by the next run; the arguments reach the program unchanged (no shell).
    end = run_program({"/bin/sh", "-c", "printf '%s|' \"$@\"", "sh", "a b", "$HOME", "*"}, log);
    CHECK(end.exit_code == 0);
    CHECK(read_file(log) == "a b|$HOME|*|");
    // Its standard input is empty (the null device): a program that reads it does not wait.
    end = run_program({"/bin/sh", "-c", "cat; echo done"}, log);
    CHECK(read_file(log) == "done\n");
    end = run_program({"/bin/sh", "-c", "kill -TERM $$"}, log);
    CHECK(end.started);
    CHECK(end.signal == 15);
    CHECK(end.problem == "killed by SIGTERM");
    end = run_program({dir.file("missing")}, log);
    CHECK_FALSE(end.started);
    CHECK(end.problem.find("cannot start") == 0);
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
