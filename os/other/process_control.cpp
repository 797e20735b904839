// os/process.hpp without an OS back end, the part a back end replaces: no child processes,
// SIGINT and SIGTERM watched through std::signal, quick_exit hooked, no process or thread ids.
#include <csignal>
#include <cstdlib>

#include "os/other/interrupts.hpp"
#include "os/process.hpp"

namespace glint::os {
namespace {

extern "C" void on_interrupt(int sig) { interrupts::record(sig); }

}  // namespace

bool child_processes_available(std::string& why) {
    why = "this build has no OS back end for child processes (GLINT_OS=other)";
    return false;
}

void watch_interrupt_signals() {
    interrupts::clear();
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
}

void unwatch_interrupt_signals() {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

void interrupts::at_quick_exit(void (*fn)()) { std::at_quick_exit(fn); }

int process_id() noexcept { return 0; }
long thread_id() noexcept { return 0; }

}  // namespace glint::os
