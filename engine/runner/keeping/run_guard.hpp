// engine/runner/keeping/run_guard.hpp: keeps a --bench run's finished rows through whatever ends
// it early. The guard is the run's observer; it owns a watcher thread and the process-wide hooks,
// all disarmed when it is destroyed. The interrupt signals (os/process.hpp: SIGINT, SIGTERM,
// SIGHUP, SIGPIPE, SIGALRM, SIGUSR1/2, SIGXCPU, SIGXFSZ, ...) stop the run at its next
// checkpoint (Interrupted; exit 128 + signal), or after `grace_s` from the watcher; a case past
// --case-timeout (without --isolate) exits 1; exit() inside a case exits 1; a fatal signal writes
// the document async-signal-safely and dies by it. Each writes --bench-json with
// meta.interrupted = {by, duringCase, finishedRows} (run_record.hpp).
// Rationale and details: docs/rationale.md, "engine/runner/keeping/run_guard.hpp".
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
    // The watching parent continued a case that stopped itself past --case-timeout
    // (supervision.hpp): the run ends as that timeout ends it. end_overdue: state_ locked.
    void end_if_overdue();
    [[noreturn]] void end_overdue();
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
