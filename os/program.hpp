// os/program.hpp: another program run to its end, as glint-compare --alternate runs the two
// builds it compares. Per OS: os/linux/program.cpp (posix_spawn, waitpid; no shell, no PATH
// search), os/other/program.cpp (no child processes: says so).
#pragma once

#include <string>
#include <vector>

namespace glint::os {

struct ProgramEnd {
    bool started = false;  // false: it could not be started (`problem` says why)
    int exit_code = -1;    // when it exited
    int signal = 0;        // when a signal killed it
    int interrupted = 0;   // the interrupt passed on to it (see run_program)
    bool killed = false;   // it outlived kInterruptGraceS after the interrupt: SIGKILL
    std::string problem;
};

// How long a program may take to end after an interrupt was passed on to it.
inline constexpr double kInterruptGraceS = 5;

// Runs argv[0] (a path) with argv and the caller's environment, its standard input the null
// device, its standard output and error both written to `log_path` (created new: an existing
// file or a symlink there is an error, `problem`), in a process group of its own; waits for it
// to end. While the caller watches interrupts (os/process.hpp), one that arrives (SIGINT,
// SIGTERM, SIGHUP, ...; not SIGPIPE or SIGXFSZ, the caller's own) is sent on to the program's
// process group, which is then waited for: SIGKILL ends the group after kInterruptGraceS
// (`killed`).
ProgramEnd run_program(const std::vector<std::string>& argv, const std::string& log_path);

// Whether `path` is a regular file this process may execute; otherwise `why` says why not.
bool is_executable(const std::string& path, std::string& why);

}  // namespace glint::os
