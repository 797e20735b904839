#include "engine/runner/keeping/supervision.hpp"

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "os/supervisor.hpp"

namespace glint::engine {
namespace {

os::SupervisedPage* g_page = nullptr;

// `what` happened; then where the finished rows are, and the remedy.
std::string ended_early(const os::SupervisedPage& page, std::string what) {
    if (page.journal[0])
        what += std::string("; its finished rows are in the journal '") + page.journal +
                "' (--recover-journal)";
    return what + " (--isolate runs each case in a child process and goes on)\n";
}

std::string unfinished(const os::SupervisedPage& page) {
    std::string text = "glint: error: the run exited with status 0 before it finished";
    text += page.in_flight[0] ? std::string(", during '") + page.in_flight + "'"
                              : std::string(" (between cases)");
    return ended_early(page, text +
                                 ": something called _exit() or otherwise left without glint's "
                                 "hooks; the cases after it did not run");
}

std::string stopped(const os::SupervisedPage& page) {
    const std::string who =
        page.in_flight[0] ? std::string("'") + page.in_flight + "'" : std::string("the run");
    return ended_early(page, "glint: error: " + who +
                                 " stopped itself (SIGSTOP) past --case-timeout and did not end "
                                 "when continued: killed (SIGKILL)");
}

}  // namespace

void supervise_run() {
    const char* off = std::getenv("GLINT_SUPERVISE");
    if (g_page || (off && std::strcmp(off, "0") == 0)) return;
    g_page = os::supervise_process(&unfinished, &stopped);
}

void supervised_case(const std::string& shown, double timeout_s) {
    if (!g_page) return;
    os::put_text(g_page->in_flight, shown);
    std::int64_t deadline = 0;
    if (!shown.empty() && timeout_s > 0)
        deadline = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       (std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s))
                           .time_since_epoch())
                       .count();
    g_page->case_deadline_ns.store(deadline);
}

void supervised_journal(const std::string& path) {
    if (g_page) os::put_text(g_page->journal, path);
}

bool supervised_overdue() { return g_page && g_page->overdue.load() != 0; }

void supervised_finished() {
    if (g_page) g_page->finished.store(1);
}

}  // namespace glint::engine
