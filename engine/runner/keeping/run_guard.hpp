// engine/runner/keeping/run_guard.hpp: keeps a --bench run's finished rows through whatever ends it
// early. The guard is the run's observer (BenchRun tells it each case and row); it owns a
// watcher thread and the process-wide hooks, all disarmed when it is destroyed.
//
// What ends a run early, and what happens (the document is --bench-json with
// meta.interrupted = {by, duringCase, finishedRows}, written atomically; engine/runner/
// run_record.hpp):
// - SIGINT, SIGTERM, SIGHUP, SIGPIPE, or EPIPE on the standard output: the handler only records
//   the signal (async-signal-safe). The run stops at its next checkpoint (between samples and
//   passes, outside timed windows) by throwing Interrupted; glint::main ends the table group in
//   progress, writes the document from its rows and exits 128 + signal (130, 143, 129, 141).
//   A case that reaches no checkpoint within `grace_s`, or a second signal, is not waited for:
//   the watcher thread ends the table group when the table is free, writes the document from
//   the record, and exits 128 + signal. After the cases (writing outputs, comparing with a
//   baseline) a signal glint::main is not already answering ends the process at once the same
//   way (a document already written stays).
// - A case (a registration body, a bench_case's setup, a row's measurement) running longer
//   than --case-timeout, without --isolate: the watcher names it on stderr, ends the table
//   group, writes the document (by "case-timeout") and exits 1.
// - exit() or quick_exit() inside a case: the exit hook does the same (by "exit(N)") and
//   forces exit status 1.
// - A fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) whose action is the default: the
//   handler writes the document (by the signal's name) and one line on stderr with
//   async-signal-safe calls only, then the process dies by the signal. The table is not
//   touched there.
// - SIGKILL, a power cut: the journal beside the target holds every finished row
//   (--recover-journal, engine/runner/keeping/journal.hpp).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "engine/runner/bench/run_observer.hpp"
#include "engine/runner/keeping/run_record.hpp"
#include "engine/runner/keeping/table_guard.hpp"

namespace glint::engine {

class RunGuard final : public RunObserver {
public:
    struct Settings {
        double case_timeout_s = 300;  // 0: none
        bool time_cases = true;       // false under --isolate (each child is timed instead)
        double grace_s = 2;           // how long an interruption waits for a checkpoint
    };

    RunGuard(Settings settings, RunRecord& record, TableGuard& table);
    ~RunGuard() override;
    RunGuard(const RunGuard&) = delete;
    RunGuard& operator=(const RunGuard&) = delete;

    void case_started(const std::string& name, const Labels& labels) override;
    void row_finished(const Row& row) override;
    void checkpoint() override;  // throws Interrupted once a stop was asked for
    void columns_known(const std::vector<catalog::MetricDescriptor>& columns) override;

    // Asks the run to stop as `signal` would (EPIPE on the standard output: SIGPIPE).
    void request_stop(int signal);
    // The signal that asked the run to stop, or 0 (a signal the watcher has not seen yet
    // counts: the handler's record is read too).
    int poll_stop();
    // The run returned, or unwound with Interrupted: nothing ends it from outside any more
    // (glint::main writes the final document).
    void run_over();

private:
    void watch();
    // On the watcher thread or in the exit hook, with state_ locked: never returns.
    [[noreturn]] void end_run(const std::string& by, const std::string& message, int status);
    static void on_exit_hook(int status);
    static void on_fatal_signal(int sig);

    Settings settings_;
    RunRecord& record_;
    TableGuard& table_;
    std::mutex state_;
    std::string case_;  // the case in flight, as the terminal shows it ("" between cases)
    std::chrono::steady_clock::time_point case_start_;
    bool in_case_ = false;
    bool over_ = false;
    bool answered_first_signal_ = false;  // glint::main stopped for the first signal received
    int signals_seen_ = 0;                // interrupt signals the watcher has read
    bool stopping_ = false;
    std::atomic<int> stop_signal_{0};
    std::chrono::steady_clock::time_point grace_end_;
    std::thread watcher_;
};

}  // namespace glint::engine
