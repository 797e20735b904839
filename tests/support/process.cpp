#include "support/process.hpp"
#include "support/temp_dir.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace glint::test {

namespace {

// A started child: its pid and the read ends of its stdout (-1 when it went to a file) and
// stderr pipes.
struct Spawned {
    pid_t pid = -1;
    int out_fd = -1;
    int err_fd = -1;
};

// Starts argv[0] (no shell) with stdin from /dev/null, this environment plus `extra_env`, stderr
// into a pipe and stdout into a pipe, or into `stdout_path` (opened for writing) when given.
Spawned spawn(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env,
              const std::string& stdout_path = "") {
    int out_pipe[2] = {-1, -1}, err_pipe[2];
    if ((stdout_path.empty() && pipe2(out_pipe, O_CLOEXEC) != 0) || pipe2(err_pipe, O_CLOEXEC) != 0)
        throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (stdout_path.empty()) posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
    else posix_spawn_file_actions_addopen(&actions, 1, stdout_path.c_str(), O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);

    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<std::string> env_store;
    for (char** e = environ; *e; ++e) env_store.emplace_back(*e);
    for (const auto& e : extra_env) env_store.push_back(e);
    std::vector<char*> env;
    for (auto& e : env_store) env.push_back(e.data());
    env.push_back(nullptr);

    Spawned child;
    const int rc = posix_spawn(&child.pid, args[0], &actions, nullptr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    if (out_pipe[1] >= 0) close(out_pipe[1]);
    close(err_pipe[1]);
    if (rc != 0) {
        if (out_pipe[0] >= 0) close(out_pipe[0]);
        close(err_pipe[0]);
        throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
    }
    child.out_fd = out_pipe[0];
    child.err_fd = err_pipe[0];
    return child;
}

// The exit code or terminating signal of a wait status, into `result`.
void record_status(int status, ProcessResult& result) {
    if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::string>& extra_env) {
    const Spawned child = spawn(argv, extra_env);
    ProcessResult result;
    pollfd fds[2] = {{child.out_fd, POLLIN, 0}, {child.err_fd, POLLIN, 0}};
    std::string* sinks[2] = {&result.out, &result.err};
    int open_fds = 2;
    char buf[65536];
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t n = read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                sinks[i]->append(buf, static_cast<std::size_t>(n));
            } else if (n == 0 || errno != EINTR) {
                close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
            }
        }
    }
    int status = 0;
    while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {}
    record_status(status, result);
    return result;
}

std::string fixture_path(const std::string& name) {
#ifdef GLINT_FIXTURE_DIR
    return std::string(GLINT_FIXTURE_DIR) + "/glint_fixture_" + name;
#else
    return "glint_fixture_" + name;
#endif
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string temp_json_path(const std::string& stem) { return temp_path(stem + ".json"); }

std::string run_writing_document(std::vector<std::string> argv, const std::string& path,
                                 const std::vector<std::string>& extra_env, ProcessResult& result) {
    std::remove(path.c_str());
    argv.push_back("--bench-json=" + path);
    result = run_process(argv, extra_env);
    return read_file(path);
}

struct BackgroundProcess::State {
    mutable std::mutex mutex;
    std::string out, err;
    int out_fd = -1, err_fd = -1;
    std::atomic<bool> out_closed{false};
    std::thread reader;
    bool reaped = false;
    ProcessResult result;
};

BackgroundProcess::BackgroundProcess(const std::vector<std::string>& argv,
                                     const std::vector<std::string>& extra_env,
                                     const std::string& stdout_path)
    : state_(new State) {
    const Spawned child = spawn(argv, extra_env, stdout_path);
    pid_ = child.pid;
    state_->out_fd = child.out_fd;
    state_->err_fd = child.err_fd;
    state_->reader = std::thread([s = state_] {
        char buf[65536];
        while (true) {
            std::vector<pollfd> fds;
            if (s->out_fd >= 0 && !s->out_closed) fds.push_back({s->out_fd, POLLIN, 0});
            if (s->err_fd >= 0) fds.push_back({s->err_fd, POLLIN, 0});
            if (fds.empty()) return;
            if (poll(fds.data(), fds.size(), 50) < 0 && errno != EINTR) return;
            for (auto& p : fds) {
                if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
                const ssize_t n = read(p.fd, buf, sizeof buf);
                std::lock_guard lock(s->mutex);
                std::string& sink = p.fd == s->err_fd ? s->err : s->out;
                if (n > 0) {
                    sink.append(buf, static_cast<std::size_t>(n));
                } else if (n == 0 || errno != EINTR) {
                    if (p.fd == s->err_fd) s->err_fd = -1;
                    else s->out_closed = true;
                }
            }
        }
    });
}

BackgroundProcess::~BackgroundProcess() {
    if (!state_->reaped) wait(0);
    if (state_->reader.joinable()) state_->reader.join();
    delete state_;
}

std::string BackgroundProcess::out() const {
    std::lock_guard lock(state_->mutex);
    return state_->out;
}

std::string BackgroundProcess::err() const {
    std::lock_guard lock(state_->mutex);
    return state_->err;
}

void BackgroundProcess::close_stdout() {
    state_->out_closed = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the reader lets go of it
    std::lock_guard lock(state_->mutex);
    if (state_->out_fd >= 0) close(state_->out_fd);
    state_->out_fd = -1;
}

ProcessResult BackgroundProcess::wait(double timeout_s) {
    if (state_->reaped) return state_->result;
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    int status = 0;
    while (true) {
        const pid_t done = waitpid(pid_, &status, WNOHANG);
        if (done == pid_) break;
        if (std::chrono::steady_clock::now() >= end) {
            kill(pid_, SIGKILL);
            waitpid(pid_, &status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    state_->reaped = true;
    if (state_->reader.joinable()) state_->reader.join();
    ProcessResult& r = state_->result;
    record_status(status, r);
    r.out = out();
    r.err = err();
    if (state_->out_fd >= 0) close(state_->out_fd);
    if (state_->err_fd >= 0) close(state_->err_fd);
    return r;
}

bool wait_until(const std::function<bool()>& ready, double timeout_s) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    while (std::chrono::steady_clock::now() < end) {
        if (ready()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return ready();
}

}  // namespace glint::test
