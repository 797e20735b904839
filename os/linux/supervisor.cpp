// os/supervisor.hpp on Linux.
#include "os/supervisor.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <new>

namespace glint::os {
namespace {

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM};
volatile pid_t g_child = 0;
constexpr std::int64_t kStoppedGraceNs = 5'000'000'000;

// Another process's kill() (si_code <= 0) goes on to the child; a signal the kernel sent (a
// terminal's ^C, SI_KERNEL) reached the child's process group too and is not sent twice.
void forward(int sig, siginfo_t* info, void*) {
    if (g_child > 0 && info && info->si_code <= 0 && info->si_pid != g_child) ::kill(g_child, sig);
}

[[noreturn]] void leave_as(int status, UnfinishedMessage unfinished, const SupervisedPage& page) {
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        struct rlimit none {
            0, 0
        };
        ::setrlimit(RLIMIT_CORE, &none);  // the child dumped core already, where it could
        struct sigaction dfl {};
        dfl.sa_handler = SIG_DFL;
        sigemptyset(&dfl.sa_mask);
        ::sigaction(sig, &dfl, nullptr);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
        ::raise(sig);
        ::_exit(128 + sig);  // a signal that does not kill (SIGCHLD...): the shell's status
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (code == 0 && page.finished.load() == 0) {
        const std::string message = unfinished(page);
        std::fputs(message.c_str(), stderr);
        std::fflush(stderr);
        ::_exit(1);
    }
    ::_exit(code);
}

std::int64_t steady_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The child stopped: continued once past its case's deadline (its --case-timeout then ends
// it), killed when it has not ended kStoppedGraceNs later. Returns once it runs again or has ended,
// with `status` its end when it ended.
bool wait_while_stopped(pid_t child, int& status, UnfinishedMessage stopped, SupervisedPage& page) {
    std::int64_t continued_at = 0;
    while (true) {
        const pid_t done = ::waitpid(child, &status, WNOHANG | WUNTRACED | WCONTINUED);
        if (done == child && (WIFEXITED(status) || WIFSIGNALED(status))) return true;
        if (done == child && WIFCONTINUED(status) && continued_at == 0) return false;
        if (done < 0 && errno != EINTR) ::_exit(1);
        const std::int64_t deadline = page.case_deadline_ns.load();
        const std::int64_t now = steady_now_ns();
        if (continued_at == 0 && deadline != 0 && now >= deadline) {
            continued_at = now;
            page.overdue.store(1);
            ::kill(child, SIGCONT);
        } else if (continued_at != 0 && now >= continued_at + kStoppedGraceNs) {
            ::kill(child, SIGKILL);
            while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {}
            const std::string message = stopped(page);
            std::fputs(message.c_str(), stderr);
            std::fflush(stderr);
            ::_exit(1);
        }
        ::usleep(50'000);
    }
}

// A debugger follows the process it started: the run stays in it.
bool traced() {
    std::FILE* status = std::fopen("/proc/self/status", "re");
    if (!status) return false;
    char line[256];
    bool found = false;
    int tracer = 0;
    while (std::fgets(line, sizeof line, status))
        if (std::sscanf(line, "TracerPid: %d", &tracer) == 1) found = tracer != 0;
    std::fclose(status);
    return found;
}

}  // namespace

SupervisedPage* supervise_process(UnfinishedMessage unfinished, UnfinishedMessage stopped) {
    if (traced()) return nullptr;
    void* shared = ::mmap(nullptr, sizeof(SupervisedPage), PROT_READ | PROT_WRITE,
                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) return nullptr;
    auto* page = new (shared) SupervisedPage();
    std::fflush(nullptr);
    const pid_t parent = ::getpid();
    const pid_t child = ::fork();
    if (child < 0) {
        ::munmap(shared, sizeof(SupervisedPage));
        return nullptr;
    }
    if (child == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(1);
        return page;
    }
    g_child = child;
    struct sigaction action {};
    action.sa_sigaction = forward;
    sigemptyset(&action.sa_mask);  // one at a time: signals pending together go on in order
    for (int sig : kForwarded) sigaddset(&action.sa_mask, sig);
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    for (int sig : kForwarded) {
        struct sigaction current {};
        ::sigaction(sig, nullptr, &current);
        if (current.sa_handler != SIG_IGN) ::sigaction(sig, &action, nullptr);
    }
    int status = 0;
    while (true) {
        if (::waitpid(child, &status, WUNTRACED) < 0) {
            if (errno != EINTR) ::_exit(1);
            continue;
        }
        if (!WIFSTOPPED(status)) break;
        // Job control (^Z, a background read or write) stops the run until the shell goes on.
        if (WSTOPSIG(status) == SIGSTOP && wait_while_stopped(child, status, stopped, *page)) break;
    }
    leave_as(status, unfinished, *page);
}

}  // namespace glint::os
