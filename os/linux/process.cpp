// os/process.hpp on Linux.
#include "os/process.hpp"

#include "os/files.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <vector>

namespace glint::os {
namespace {

// What stops a run at its next checkpoint: a terminal's or a supervisor's request, a closed
// output, and every other signal whose default action ends the process without a fault (a
// timer, a user signal, a CPU or file-size limit).
constexpr int kInterruptSignals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGPIPE,   SIGALRM, SIGUSR1,
                                     SIGUSR2, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF};
constexpr std::size_t kInterrupts = std::size(kInterruptSignals);
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGQUIT, SIGSYS};
constexpr std::size_t kFatals = std::size(kFatalSignals);
// watch_fatal_signals(handler, true): the fatal signals, then the interrupts.
constexpr std::size_t kAllEnding = kFatals + kInterrupts;
int ending_signal(std::size_t i) {
    return i < kFatals ? kFatalSignals[i] : kInterruptSignals[i - kFatals];
}

double now_s() {
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// ---- interruption state (touched by the handler: lock-free atomics only) ----
std::atomic<int> g_first_signal{0};
int g_signal_pipe[2] = {-1, -1};
struct sigaction g_previous_interrupt[kInterrupts];
// Not ours, left as they are here and in children: a signal ignored when watching began, or one
// past the first four (kClassicInterrupts) that the program handles itself (a profiler's SIGPROF).
bool g_kept[kInterrupts] = {};
constexpr std::size_t kClassicInterrupts = 4;  // SIGINT, SIGTERM, SIGHUP, SIGPIPE: always watched
constexpr std::size_t kClassicFatals = 5;      // SIGSEGV .. SIGABRT: default in every child
bool g_interrupt_watched = false;

void on_interrupt(int sig) {
    const int saved = errno;
    int expected = 0;
    g_first_signal.compare_exchange_strong(expected, sig);
    const unsigned char byte = static_cast<unsigned char>(sig);
    if (g_signal_pipe[1] >= 0) (void)!::write(g_signal_pipe[1], &byte, 1);
    errno = saved;
}

// ---- fatal-signal state ----
void (*g_fatal_handler)(int) = nullptr;
struct sigaction g_previous_fatal[kAllEnding];
bool g_fatal_installed[kAllEnding] = {};
std::vector<char> g_alt_stack;

void on_fatal(int sig) {
    if (g_fatal_handler) g_fatal_handler(sig);
    // SA_RESETHAND restored the default action; the signal is blocked until we return, so it
    // is delivered (and kills) on return, also when it was sent rather than raised by a fault.
    ::raise(sig);
}

// ---- exit hook ----
std::atomic<void (*)(int)> g_exit_hook{nullptr};
bool g_exit_registered = false;
void on_exit_call(int status, void*) {
    if (auto hook = g_exit_hook.load()) hook(status);
}
void on_quick_exit_call() {
    if (auto hook = g_exit_hook.load()) hook(-1);
}

void restore_defaults_in_child() {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (std::size_t i = 0; i < kInterrupts; ++i) {
        struct sigaction current {};
        ::sigaction(kInterruptSignals[i], nullptr, &current);
        if (g_interrupt_watched ? g_kept[i] : current.sa_handler == SIG_IGN) continue;
        const bool ours = current.sa_handler == on_interrupt || current.sa_handler == on_fatal;
        if (i < kClassicInterrupts || ours) ::sigaction(kInterruptSignals[i], &dfl, nullptr);
    }
    for (std::size_t i = 0; i < kFatals; ++i) {
        struct sigaction current {};
        ::sigaction(kFatalSignals[i], nullptr, &current);
        if (i < kClassicFatals || current.sa_handler == on_fatal)
            ::sigaction(kFatalSignals[i], &dfl, nullptr);
    }
    sigset_t all;
    sigemptyset(&all);
    ::sigprocmask(SIG_SETMASK, &all, nullptr);
    g_exit_hook.store(nullptr);
    g_fatal_handler = nullptr;
}

// The child leads a process group of its own: what it forked ends with it.
void kill_group(pid_t pid) { ::kill(-pid, SIGKILL); }

void kill_and_reap(pid_t pid) {
    kill_group(pid);
    ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
}

}  // namespace

bool child_processes_available(std::string&) { return true; }

ChildOutcome run_child(const std::function<void(int fd)>& child, const ChildWatch& watch) {
    ChildOutcome outcome;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        outcome.problem = std::string("pipe failed: ") + std::strerror(errno);
        return outcome;
    }
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        outcome.problem = std::string("fork failed: ") + std::strerror(errno);
        ::close(fds[0]);
        ::close(fds[1]);
        return outcome;
    }
    if (pid == 0) {
        ::close(fds[0]);
        ::setpgid(0, 0);  // a group of its own, ended as a whole (also set by the parent: no race)
        restore_defaults_in_child();
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(1);
        try {
            child(fds[1]);
        } catch (...) {
            // Never unwind into the parent's frames (they are copies here): the parent sees the
            // missing end of the child's work.
            std::fflush(nullptr);
            ::_exit(70);
        }
        std::fflush(nullptr);
        ::_exit(0);
    }
    ::close(fds[1]);
    ::setpgid(pid, pid);
    ::fcntl(fds[0], F_SETFL, O_NONBLOCK);
    const double deadline = watch.timeout_s > 0 ? now_s() + watch.timeout_s : 0;
    std::string pending;
    bool eof = false;
    auto drain = [&] {
        char buf[65536];
        while (true) {
            const ssize_t n = ::read(fds[0], buf, sizeof buf);
            if (n > 0) {
                pending.append(buf, static_cast<std::size_t>(n));
                continue;
            }
            if (n == 0) eof = true;
            if (n < 0 && errno == EINTR) continue;
            break;
        }
        std::size_t start = 0;
        for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1)
            if (watch.on_line) watch.on_line(std::string_view(pending).substr(start, nl - start));
        pending.erase(0, start);
    };
    while (true) {
        pollfd p{fds[0], POLLIN, 0};
        if (eof) ::poll(nullptr, 0, 20);  // the pipe is closed: wait for the exit status only
        else ::poll(&p, 1, 100);
        drain();
        int status = 0;
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid) {
            kill_group(pid);  // processes the child left behind
            drain();
            if (WIFSIGNALED(status)) {
                outcome.end = ChildOutcome::End::signaled;
                outcome.signal = WTERMSIG(status);
            } else {
                outcome.end = ChildOutcome::End::exited;
                outcome.exit_code = WEXITSTATUS(status);
            }
            break;
        }
        if (deadline > 0 && now_s() >= deadline) {
            kill_and_reap(pid);
            outcome.end = ChildOutcome::End::timed_out;
            break;
        }
        if (watch.tick && watch.tick()) {
            kill_and_reap(pid);
            outcome.end = ChildOutcome::End::abandoned;
            break;
        }
    }
    ::close(fds[0]);
    return outcome;
}

bool write_to_parent(int fd, std::string_view text) {
    return emergency_put(fd, text.data(),
                         text.size());  // the whole text, EINTR retried (os/files.hpp)
}

int broken_pipe_signal() noexcept { return SIGPIPE; }

bool is_limit_signal(int sig) noexcept { return sig == SIGXCPU || sig == SIGXFSZ; }

bool is_interrupt_signal(int sig) noexcept {
    for (int s : kInterruptSignals)
        if (s == sig) return true;
    return false;
}

void watch_interrupt_signals() {
    if (g_interrupt_watched) return;
    g_first_signal.store(0);
    if (::pipe2(g_signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        g_signal_pipe[0] = g_signal_pipe[1] = -1;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);  // one at a time: the first one recorded is the first delivered
    for (int sig : kInterruptSignals) sigaddset(&action.sa_mask, sig);
    action.sa_flags = SA_RESTART;
    for (std::size_t i = 0; i < kInterrupts; ++i) {
        // An inherited SIG_IGN (nohup, a shell's background job) is kept: that signal is not ours.
        ::sigaction(kInterruptSignals[i], nullptr, &g_previous_interrupt[i]);
        const auto previous = g_previous_interrupt[i].sa_handler;
        g_kept[i] = previous == SIG_IGN ||
                    (i >= kClassicInterrupts &&
                     (previous != SIG_DFL || (g_previous_interrupt[i].sa_flags & SA_SIGINFO)));
        if (!g_kept[i]) ::sigaction(kInterruptSignals[i], &action, nullptr);
    }
    g_interrupt_watched = true;
}

void unwatch_interrupt_signals() {
    if (!g_interrupt_watched) return;
    for (std::size_t i = 0; i < kInterrupts; ++i) {
        if (kInterruptSignals[i] == SIGPIPE && g_first_signal.load() == SIGPIPE) {
            ::signal(SIGPIPE, SIG_IGN);
            continue;
        }
        struct sigaction current {};
        ::sigaction(kInterruptSignals[i], nullptr, &current);
        // A kept one, or one the program took over during the run, stays as it is now.
        if (g_kept[i] || (i >= kClassicInterrupts && current.sa_handler != on_interrupt)) continue;
        ::sigaction(kInterruptSignals[i], &g_previous_interrupt[i], nullptr);
    }
    for (int& fd : g_signal_pipe) {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
    g_interrupt_watched = false;
}

int wait_for_signal(double timeout_s) {
    if (g_signal_pipe[0] < 0) {
        ::poll(nullptr, 0, static_cast<int>(timeout_s * 1000));
        return 0;
    }
    pollfd p{g_signal_pipe[0], POLLIN, 0};
    const int ms = timeout_s <= 0 ? 0 : static_cast<int>(timeout_s * 1000) + 1;
    if (::poll(&p, 1, ms) <= 0) return 0;
    unsigned char byte = 0;
    if (::read(g_signal_pipe[0], &byte, 1) != 1) return 0;
    return byte == 0 ? -1 : byte;
}

void wake_signal_wait() {
    const unsigned char zero = 0;
    if (g_signal_pipe[1] >= 0) (void)!::write(g_signal_pipe[1], &zero, 1);
}

int first_interrupt_signal() noexcept { return g_first_signal.load(); }

void watch_fatal_signals(void (*handler)(int sig), bool interrupts_too) {
    g_fatal_handler = handler;
    if (g_alt_stack.empty()) {
        g_alt_stack.resize(1 << 16);
        stack_t ss{};
        ss.ss_sp = g_alt_stack.data();
        ss.ss_size = g_alt_stack.size();
        ::sigaltstack(&ss, nullptr);
    }
    struct sigaction action {};
    action.sa_handler = on_fatal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_ONSTACK | SA_RESETHAND;
    for (std::size_t i = 0; i < (interrupts_too ? kAllEnding : kFatals); ++i) {
        struct sigaction current {};
        ::sigaction(ending_signal(i), nullptr, &current);
        // SIGPIPE stays quiet: a closed output (| head) is no failure of the case in flight.
        g_fatal_installed[i] = current.sa_handler == SIG_DFL && !(current.sa_flags & SA_SIGINFO) &&
                               ending_signal(i) != SIGPIPE;
        if (g_fatal_installed[i]) ::sigaction(ending_signal(i), &action, &g_previous_fatal[i]);
    }
}

void unwatch_fatal_signals() {
    for (std::size_t i = 0; i < kAllEnding; ++i) {
        if (!g_fatal_installed[i]) continue;
        struct sigaction current {};
        ::sigaction(ending_signal(i), nullptr, &current);
        if (current.sa_handler == on_fatal)
            ::sigaction(ending_signal(i), &g_previous_fatal[i], nullptr);
        g_fatal_installed[i] = false;
    }
    g_fatal_handler = nullptr;
}

void set_exit_hook(void (*hook)(int status)) {
    g_exit_hook.store(hook);
    if (hook && !g_exit_registered) {
        ::on_exit(on_exit_call, nullptr);
        ::at_quick_exit(on_quick_exit_call);
        g_exit_registered = true;
    }
}

void exit_immediately(int status) noexcept { ::_exit(status); }

int process_id() noexcept { return static_cast<int>(::getpid()); }

unsigned long long address_space_limit() noexcept {
    struct rlimit limit {};
    if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
    return static_cast<unsigned long long>(limit.rlim_cur);
}
long thread_id() noexcept { return static_cast<long>(::gettid()); }

namespace {
void write_text_fd(int fd, const char* text) noexcept {
    std::size_t size = std::strlen(text);
    while (size > 0) {
        const ssize_t n = ::write(fd, text, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        text += n;
        size -= static_cast<std::size_t>(n);
    }
}
}  // namespace

void write_stderr(const char* text) noexcept { write_text_fd(STDERR_FILENO, text); }
void write_stdout(const char* text) noexcept { write_text_fd(STDOUT_FILENO, text); }

}  // namespace glint::os
