// os/supervisor.hpp: a run watched from outside, for the exits no process sees itself
// (_exit(0) inside a case skips every hook). Per OS: os/linux/supervisor.cpp (fork, a shared
// page, waitpid), os/other/supervisor.cpp (not available: the run is not supervised).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

namespace glint::os {

// What the supervised process tells its supervisor: written with plain stores (no system
// call), read by the supervisor once the process has ended.
struct SupervisedPage {
    std::atomic<int> finished{0};  // 1: glint::main returned (its status is the one to keep)
    char in_flight[1024] = {};     // the case in flight ("" between cases), cut to fit
    char journal[4096] = {};       // the run's journal, when it has one
    // When the case in flight passes --case-timeout (std::chrono::steady_clock, ns); 0: none.
    std::atomic<std::int64_t> case_deadline_ns{0};
    std::atomic<int> overdue{0};  // 1: the case stopped past that deadline and was continued
};

// Forks once. The child returns the page to fill (shared with the parent). The parent never
// returns: it forwards to the child the signals another process sends it (those a terminal
// sends reach the whole process group already; an ignored one stays ignored), waits for the
// child and leaves as it did: the same exit status, or death by the same signal; but a child
// that exited 0 without marking the page finished makes the parent print
// `unfinished(page)` on stderr and exit 1. The child dies (SIGKILL) with the parent. A child
// that stopped by SIGSTOP (not by job control) past page.case_deadline_ns is marked overdue and
// continued (SIGCONT), so that its own --case-timeout ends it; one that has not ended 5 s later is
// killed (SIGKILL), `stopped(page)` is printed on stderr and the parent exits 1. Returns nullptr
// when the run is not supervised: here no supervision exists, or fork failed.
using UnfinishedMessage = std::string (*)(const SupervisedPage& page);
SupervisedPage* supervise_process(UnfinishedMessage unfinished, UnfinishedMessage stopped);

// Copies `text` into `slot` (cut to fit, always terminated); plain stores only.
template <std::size_t N>
void put_text(char (&slot)[N], const std::string& text) {
    const std::size_t n = text.size() < N - 1 ? text.size() : N - 1;
    for (std::size_t i = 0; i < n; ++i) slot[i] = text[i];
    slot[n] = '\0';
}

}  // namespace glint::os
