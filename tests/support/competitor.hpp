// tests/support/competitor.hpp (Linux): a busy child process pinned to one CPU, the competitor of
// the tests that show what load does to a measurement. It spins from construction (after 50 ms
// it runs on its CPU) until the object goes (SIGKILL, reaped), and dies with the test process
// (PR_SET_PDEATHSIG) should that end first.
#pragma once

#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <doctest/doctest.h>

namespace glint::test {

class PinnedCompetitor {
  public:
    explicit PinnedCompetitor(unsigned cpu) {
        pid_ = ::fork();
        REQUIRE(pid_ >= 0);
        if (pid_ == 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET(cpu, &set);
            if (::sched_setaffinity(0, sizeof set, &set) != 0) ::_exit(1);
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            volatile unsigned long spin = 0;
            for (;;) spin = spin + 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ~PinnedCompetitor() {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
    PinnedCompetitor(const PinnedCompetitor&) = delete;
    PinnedCompetitor& operator=(const PinnedCompetitor&) = delete;

  private:
    pid_t pid_ = -1;
};

}  // namespace glint::test
