// os/process.hpp on Windows, the part over os/other/process.cpp: Ctrl-C and Ctrl-Break
// (SIGINT) and the console closing, a logoff or a shutdown (SIGTERM) reach the run through
// SetConsoleCtrlHandler, whose routine runs on a thread of its own and returns at once, so the
// run ends as on a Linux signal and keeps its finished rows; std::signal covers raise(). msvcrt
// has no quick_exit to hook. No child processes yet: --isolate is refused with the reason.
#include <csignal>

#include "os/other/interrupts.hpp"
#include "os/process.hpp"
#include "os/windows/win32.hpp"

namespace glint::os {
namespace {

BOOL WINAPI on_console_event(DWORD event) {
    switch (event) {
        case CTRL_C_EVENT:
        case CTRL_BREAK_EVENT:
            interrupts::record(SIGINT);
            return TRUE;
        case CTRL_CLOSE_EVENT:
        case CTRL_LOGOFF_EVENT:
        case CTRL_SHUTDOWN_EVENT:
            interrupts::record(SIGTERM);
            return TRUE;
        default:
            return FALSE;
    }
}

extern "C" void on_raised(int sig) { interrupts::record(sig); }

}  // namespace

bool child_processes_available(std::string& why) {
    why =
        "the Windows back end does not run a case in a child process yet (it needs the same "
        "program started again by CreateProcess for one case, with a pipe back)";
    return false;
}

void watch_interrupt_signals() {
    interrupts::clear();
    SetConsoleCtrlHandler(on_console_event, TRUE);
    for (int sig : {SIGINT, SIGTERM}) std::signal(sig, on_raised);
}

void unwatch_interrupt_signals() {
    SetConsoleCtrlHandler(on_console_event, FALSE);
    for (int sig : {SIGINT, SIGTERM}) std::signal(sig, SIG_DFL);
}

void interrupts::at_quick_exit(void (*)()) {}

int process_id() noexcept { return static_cast<int>(GetCurrentProcessId()); }
long thread_id() noexcept { return static_cast<long>(GetCurrentThreadId()); }

}  // namespace glint::os
