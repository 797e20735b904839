// os/process.hpp without an OS back end: no child processes (--isolate says so), SIGINT and
// SIGTERM through std::signal, exits through std::atexit; no fatal-signal hook.
#include "os/process.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace glint::os {
namespace {

std::atomic<int> g_first_signal{0};
std::atomic<bool> g_woken{false};
std::atomic<void (*)(int)> g_exit_hook{nullptr};
bool g_exit_registered = false;

extern "C" void on_interrupt(int sig) {
    int expected = 0;
    g_first_signal.compare_exchange_strong(expected, sig);
}

void on_exit_call() {
    if (auto hook = g_exit_hook.load()) hook(-1);
}

}  // namespace

bool child_processes_available(std::string& why) {
    why = "this build has no OS back end for child processes (GLINT_OS=other)";
    return false;
}

ChildOutcome run_child(const std::function<void(int)>&, const ChildWatch&) {
    ChildOutcome outcome;
    child_processes_available(outcome.problem);
    return outcome;
}

bool write_to_parent(int, std::string_view) { return false; }

const char* signal_abbrev(int sig) noexcept {
    switch (sig) {
        case SIGINT:
            return "SIGINT";
        case SIGTERM:
            return "SIGTERM";
        case SIGSEGV:
            return "SIGSEGV";
        case SIGABRT:
            return "SIGABRT";
        case SIGILL:
            return "SIGILL";
        case SIGFPE:
            return "SIGFPE";
        case 13:
            return "SIGPIPE";
        default:
            return nullptr;
    }
}

bool is_interrupt_signal(int sig) noexcept { return sig == SIGINT || sig == SIGTERM; }

bool is_limit_signal(int) noexcept { return false; }

int broken_pipe_signal() noexcept { return 13; }  // POSIX's SIGPIPE: a closed output

std::string signal_name(int sig) {
    const char* name = signal_abbrev(sig);
    return name ? name : "signal " + std::to_string(sig);
}

void watch_interrupt_signals() {
    g_first_signal.store(0);
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
}

void unwatch_interrupt_signals() {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

int wait_for_signal(double timeout_s) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
    static int reported = 0;
    while (true) {
        if (g_woken.exchange(false)) return -1;
        const int sig = g_first_signal.load();
        if (sig != 0 && reported == 0) return reported = sig;
        if (std::chrono::steady_clock::now() >= end) return 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

void wake_signal_wait() { g_woken.store(true); }
int first_interrupt_signal() noexcept { return g_first_signal.load(); }

void watch_fatal_signals(void (*)(int), bool) {}
void unwatch_fatal_signals() {}

void set_exit_hook(void (*hook)(int)) {
    g_exit_hook.store(hook);
    if (hook && !g_exit_registered) {
        std::atexit(on_exit_call);
        std::at_quick_exit(on_exit_call);
        g_exit_registered = true;
    }
}

void exit_immediately(int status) noexcept { std::_Exit(status); }
int process_id() noexcept { return 0; }
long thread_id() noexcept { return 0; }

unsigned long long address_space_limit() noexcept { return 0; }
void write_stderr(const char* text) noexcept { std::fputs(text, stderr); }
void write_stdout(const char* text) noexcept { std::fputs(text, stdout); }

}  // namespace glint::os
