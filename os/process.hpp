// os/process.hpp: processes, signals and exits, for a run that keeps what it measured. Per OS:
// os/linux/process.cpp (fork, pipes, waitpid, sigaction, on_exit), os/other/process.cpp (no
// child processes; std::signal and std::atexit only).
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace glint::os {

// ---- child processes (--isolate) -----------------------------------------------------------
// Whether work can run in a child process here; otherwise `why` says why not.
bool child_processes_available(std::string& why);

struct ChildOutcome {
    enum class End {
        exited,       // exit status in exit_code (it may have exited on its own: see its output)
        signaled,     // killed by `signal`
        timed_out,    // outlived ChildWatch::timeout_s: killed with SIGKILL
        abandoned,    // ChildWatch::tick asked to stop: killed with SIGKILL
        not_started,  // fork or pipe failed: `problem`
    };
    End end = End::not_started;
    int exit_code = 0;
    int signal = 0;
    std::string problem;
};

struct ChildWatch {
    double timeout_s = 0;                                // 0: no limit
    std::function<void(std::string_view line)> on_line;  // each complete line, as it arrives
    std::function<bool()> tick;  // about every 100 ms while waiting; true kills the child
};

// Runs `child(fd)` in a forked child, the leader of a process group of its own: however the
// child ends, the parent then kills (SIGKILL) the whole group, so the processes it started end
// with it. The parent flushes stdio first (nothing buffered is written twice). The child
// restores the default action of every signal this header watches (one ignored when watching
// began, or inherited ignored, stays ignored),
// unblocks all signals, is killed (SIGKILL) if the parent dies, runs `child` with `fd`, the
// write end of a pipe whose lines the parent hands to watch.on_line, flushes stdio and leaves
// with _exit(0) (_exit(70) when `child` throws: it never unwinds into the parent's frames). A
// line the child had not finished when it ended is dropped.
ChildOutcome run_child(const std::function<void(int fd)>& child, const ChildWatch& watch);

// Writes all of `text` to the pipe end a child was given; false when the parent is gone.
bool write_to_parent(int fd, std::string_view text);

// "SIGSEGV" ("signal 42" for a signal without a name here).
std::string signal_name(int sig);
// The same, async-signal-safe: a static string, or nullptr for a signal without a name here.
const char* signal_abbrev(int sig) noexcept;

// True for the interrupt signals below (what a terminal or a supervisor sends to stop a run,
// and the other signals that end a process without a fault).
bool is_interrupt_signal(int sig) noexcept;

// True for SIGXCPU and SIGXFSZ: a limit sends them again (each CPU second, each write past it)
// while it holds; a repeat is not another request to stop.
bool is_limit_signal(int sig) noexcept;

// The number of SIGPIPE (what a closed output stands for when it is seen as EPIPE).
int broken_pipe_signal() noexcept;

// ---- interruption: SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU,
// SIGXFSZ, SIGVTALRM, SIGPROF (Linux; elsewhere SIGINT and SIGTERM) ---------------------------
// Installs a handler for them that records the first one received and writes a byte to a
// self-pipe (both async-signal-safe); exec'd programs get the default actions back. A signal
// whose action is SIG_IGN already (nohup, a shell's background job) is left ignored, and one
// after SIGPIPE that the program handles itself (a profiler's SIGPROF) is left to it. Handlers
// are process-wide: the calls below are for one watcher thread.
void watch_interrupt_signals();
// The previous dispositions; but once SIGPIPE was received it stays ignored, so the writes
// still to come fail with EPIPE instead of killing the process.
void unwatch_interrupt_signals();
// Waits up to `timeout_s` for one of them: the signal, 0 on timeout, -1 when woken.
int wait_for_signal(double timeout_s);
void wake_signal_wait();
int first_interrupt_signal() noexcept;  // the first one received since watching began, or 0

// ---- fatal signals: SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGQUIT, SIGSYS --------------
// Where their action is the default (a sanitizer's or the program's own handler is left
// alone), `handler` runs first, on an alternate stack of the calling thread, and must make
// async-signal-safe calls only; the default action follows (the process dies by the signal).
// `interrupts_too`: the interrupt signals above but SIGPIPE are handled so as well (for a run
// that does not watch them).
void watch_fatal_signals(void (*handler)(int sig), bool interrupts_too = false);
void unwatch_fatal_signals();  // restores what was there, unless someone replaced it since

// ---- exits ---------------------------------------------------------------------------------
// `hook(status)` runs when the process leaves through exit() (status as given) or quick_exit()
// (status -1: not known), before the handlers registered earlier. nullptr disarms it.
void set_exit_hook(void (*hook)(int status));
[[noreturn]] void exit_immediately(int status) noexcept;  // no handlers, no stdio flush
int process_id() noexcept;
// The calling thread's id as the OS numbers it (Linux: gettid(), as /proc/<pid>/task lists it;
// 0 where the OS has none).
long thread_id() noexcept;
// The address-space limit (ulimit -v) in bytes, or 0 when there is none (or none is known).
unsigned long long address_space_limit() noexcept;
// Writes `text` to the standard error with write(2): async-signal-safe.
void write_stderr(const char* text) noexcept;
void write_stdout(const char* text) noexcept;  // the same, to the standard output

}  // namespace glint::os
