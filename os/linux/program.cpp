// os/program.hpp on Linux: posix_spawn (no shell) and waitpid.
#include "os/program.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "os/process.hpp"

extern char** environ;

namespace glint::os {

ProgramEnd run_program(const std::vector<std::string>& argv, const std::string& log_path) {
    ProgramEnd end;
    if (argv.empty()) {
        end.problem = "no program to run";
        return end;
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // A new file, never an existing one nor what a link planted at the path points to.
    const int log = ::open(log_path.c_str(),
                           O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0644);
    if (log < 0) {
        end.problem = "cannot create the log '" + log_path + "': " + std::strerror(errno);
        return end;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, log, 1);
    posix_spawn_file_actions_adddup2(&actions, log, 2);
    // A process group of its own: an interrupt reaches what it started too, and so does the
    // SIGKILL that ends a group still running after the grace period.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    pid_t pid = -1;
    const int error = ::posix_spawn(&pid, args[0], &actions, &attributes, args.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    ::close(log);
    if (error != 0) {
        end.problem = "cannot start '" + argv[0] + "': " + std::strerror(error);
        return end;
    }
    end.started = true;
    int status = 0;
    std::chrono::steady_clock::time_point kill_at{};
    for (double wait_s = 0.005;; wait_s = std::min(wait_s * 2, 0.2)) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) {
            end.problem = std::string("waitpid failed: ") + std::strerror(errno);
            ::kill(-pid, SIGKILL);
            return end;
        }
        if (end.interrupted && !end.killed && std::chrono::steady_clock::now() >= kill_at) {
            ::kill(-pid, SIGKILL);  // it ignored the interrupt
            end.killed = true;
        }
        if (end.interrupted) {
            ::poll(nullptr, 0, static_cast<int>(wait_s * 1000) + 1);
            continue;
        }
        const int sig = wait_for_signal(wait_s);  // 0: none, or not watched
        if (sig > 0 && is_interrupt_signal(sig) && sig != broken_pipe_signal() &&
            sig != SIGXFSZ) {  // this process's own limit, not the program's
            ::kill(-pid, sig);
            end.interrupted = sig;
            kill_at = std::chrono::steady_clock::now() +
                      std::chrono::milliseconds(static_cast<int>(kInterruptGraceS * 1000));
        }
    }
    if (WIFEXITED(status)) end.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) end.signal = WTERMSIG(status);
    if (end.signal) end.problem = "killed by " + signal_name(end.signal);
    return end;
}

bool is_executable(const std::string& path, std::string& why) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        why = std::strerror(errno);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        why = S_ISDIR(st.st_mode) ? "a directory, not a program" : "not a regular file";
        return false;
    }
    if (::access(path.c_str(), X_OK) != 0) {
        why = std::string("not executable: ") + std::strerror(errno);
        return false;
    }
    return true;
}

}  // namespace glint::os
