// os/process.hpp without a self-pipe, for os/other/ and os/windows/: no child processes
// (--isolate says so), the first interrupt noted by interrupts::record, exits through
// std::atexit; no fatal-signal hook. Per back end (process_control.cpp): which interrupts are
// watched, the quick-exit hook, the ids.
#include "os/process.hpp"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "os/other/interrupts.hpp"

namespace glint::os {
namespace {

std::atomic<int> g_first_signal{0};
std::atomic<bool> g_woken{false};
std::atomic<void (*)(int)> g_exit_hook{nullptr};
bool g_exit_registered = false;

void on_exit_call() {
    if (auto hook = g_exit_hook.load()) hook(-1);
}

}  // namespace

void interrupts::record(int sig) noexcept {
    int expected = 0;
    g_first_signal.compare_exchange_strong(expected, sig);
}

void interrupts::clear() noexcept { g_first_signal.store(0); }

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
        interrupts::at_quick_exit(on_exit_call);
        g_exit_registered = true;
    }
}

void exit_immediately(int status) noexcept { std::_Exit(status); }

unsigned long long address_space_limit() noexcept { return 0; }
void write_stderr(const char* text) noexcept { std::fputs(text, stderr); }
void write_stdout(const char* text) noexcept { std::fputs(text, stdout); }

}  // namespace glint::os
