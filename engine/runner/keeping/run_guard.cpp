#include "engine/runner/keeping/run_guard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "engine/model/sanitize.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/runner/keeping/supervision.hpp"
#include "os/process.hpp"

namespace glint::engine {
namespace {

std::atomic<RunGuard*> g_guard{nullptr};
int g_owner_pid = 0;

using Clock = std::chrono::steady_clock;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// "3 finished rows are in 'x.json'" / "... (no --bench-json to keep them)".
std::string kept_rows(const RunRecord& record, bool written) {
    const std::size_t rows = record.finished_rows();
    std::string text = fmt::format("{} finished row{}", rows, rows == 1 ? "" : "s");
    if (record.target_name().empty()) return text + " (no --bench-json to keep them)";
    if (written) return text + (rows == 1 ? " is in '" : " are in '") + record.target_name() + "'";
    text += ": writing '" + record.target_name() + "' failed";
    if (!record.journal_path().empty())
        text += "; the journal '" + record.journal_path() + "' has them";
    return text;
}

}  // namespace

RunGuard::RunGuard(Settings settings, RunRecord& record, TableGuard& table)
    : settings_(settings), record_(record), table_(table) {
    g_owner_pid = os::process_id();
    g_guard.store(this);
    set_active_record(&record_);
    table_.on_broken_pipe = [this] { request_stop(os::broken_pipe_signal()); };
    os::watch_interrupt_signals();
    os::watch_fatal_signals(&RunGuard::on_fatal_signal);
    os::set_exit_hook(&RunGuard::on_exit_hook);
    watcher_ = std::thread([this] { watch(); });
}

RunGuard::~RunGuard() {
    {
        std::lock_guard lock(state_);
        stopping_ = true;
    }
    os::wake_signal_wait();
    watcher_.join();
    os::set_exit_hook(nullptr);
    os::unwatch_fatal_signals();
    os::unwatch_interrupt_signals();
    set_active_record(nullptr);
    g_guard.store(nullptr);
    table_.on_broken_pipe = nullptr;
}

void RunGuard::case_started(const std::string& name, const Labels& labels) {
    record_.case_started(name, labels);
    supervised_case(name + label_suffix(labels),
                    settings_.time_cases ? settings_.case_timeout_s : 0);
    std::lock_guard lock(state_);
    case_ = sanitize::terminal(name);  // it is only ever printed
    case_start_ = Clock::now();
    in_case_ = true;
}

void RunGuard::row_finished(const Row& row) {
    end_if_overdue();
    record_.row_finished(row);
    if (auto lost = record_.take_journal_problem()) {  // no message names it from here on
        supervised_journal("");
        table_.diagnostic("glint: warning: " + *lost);
    }
    supervised_case("");
    std::lock_guard lock(state_);
    in_case_ = false;
    case_.clear();
}

void RunGuard::columns_known(const std::vector<catalog::MetricDescriptor>& columns) {
    record_.set_columns(columns);
}

void RunGuard::checkpoint() {
    end_if_overdue();
    if (const int sig = poll_stop()) throw Interrupted{sig};
}

void RunGuard::end_if_overdue() {
    if (!supervised_overdue()) return;
    std::unique_lock lock(state_);
    if (!over_) end_overdue();
}

void RunGuard::end_overdue() {
    end_run("case-timeout",
            fmt::format("glint: error: '{}' stopped itself (SIGSTOP) and was still stopped after "
                        "{:g} s (--case-timeout): the run stops here (--isolate ends only that "
                        "case and goes on)",
                        case_, settings_.case_timeout_s),
            1);
}

int RunGuard::poll_stop() {
    if (stop_signal_.load() == 0)
        if (const int sig = os::first_interrupt_signal()) request_stop(sig);
    return stop_signal_.load();
}

void RunGuard::request_stop(int signal) {
    int expected = 0;
    if (stop_signal_.compare_exchange_strong(expected, signal)) {
        std::lock_guard lock(state_);
        grace_end_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(settings_.grace_s));
    }
}

void RunGuard::run_over() {
    const int answered = poll_stop();  // the stop glint::main answers by writing its document
    std::lock_guard lock(state_);
    over_ = true;
    answered_first_signal_ = answered != 0 && answered == os::first_interrupt_signal();
}

void RunGuard::watch() {
    while (true) {
        double wait = 0.25;
        {
            std::lock_guard lock(state_);
            if (stopping_) return;
            const auto now = Clock::now();
            if (stop_signal_.load() != 0) wait = std::min(wait, seconds(grace_end_ - now));
            if (settings_.time_cases && settings_.case_timeout_s > 0 && in_case_)
                wait = std::min(wait, settings_.case_timeout_s - seconds(now - case_start_));
        }
        const int sig = os::wait_for_signal(std::max(wait, 0.001));
        std::unique_lock lock(state_);
        if (stopping_) return;
        if (!over_ && supervised_overdue()) end_overdue();
        // A limit repeating itself (a write past the file-size limit fails with EFBIG and is
        // reported by the writer) neither escalates a stop nor ends the writing of outputs.
        if (sig > 0 && os::is_limit_signal(sig) && (over_ || stop_signal_.load() != 0)) continue;
        if (sig > 0) ++signals_seen_;
        const int first = stop_signal_.load();
        if (over_) {
            // After the cases (outputs, the baseline comparison): a signal glint::main is not
            // already answering ends the process now, keeping what is written.
            const bool answered = signals_seen_ == 1 && answered_first_signal_;
            if (sig > 0 && !answered)
                end_run(os::signal_name(sig),
                        fmt::format("glint: {} after the cases: the run stops now",
                                    os::signal_name(sig)),
                        128 + (first != 0 ? first : sig));
            continue;
        }
        const auto now = Clock::now();
        const std::string during = in_case_ ? " during '" + case_ + "'" : "";
        if (sig > 0 && first != 0 && (sig != first || signals_seen_ > 1)) {
            end_run(os::signal_name(first),
                    fmt::format("glint: {}{}, then {}: the run stops now", os::signal_name(first),
                                during, os::signal_name(sig)),
                    128 + first);
        }
        if (sig > 0 && first == 0) {
            lock.unlock();
            request_stop(sig);
            continue;
        }
        if (first != 0 && now >= grace_end_) {
            end_run(
                os::signal_name(first),
                fmt::format("glint: {}{}: the case reached no checkpoint within {:g} s, the run "
                            "stops without it",
                            os::signal_name(first), during, settings_.grace_s),
                128 + first);
        }
        if (settings_.time_cases && settings_.case_timeout_s > 0 && in_case_ &&
            seconds(now - case_start_) >= settings_.case_timeout_s) {
            end_run(
                "case-timeout",
                fmt::format("glint: error: '{}' is still running after {:g} s (--case-timeout): "
                            "the run stops here (--isolate ends only that case and goes on)",
                            case_, settings_.case_timeout_s),
                1);
        }
    }
}

void RunGuard::end_run(const std::string& by, const std::string& message, int status) {
    over_ = true;
    table_.abandon(std::chrono::milliseconds(200));
    const bool written = record_.final_written() || record_.write_abnormal_end(by.c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "%s; %s\n", message.c_str(), kept_rows(record_, written).c_str());
    std::fflush(stderr);
    os::exit_immediately(status);
}

void RunGuard::on_exit_hook(int status) {
    RunGuard* guard = g_guard.load();
    if (!guard || os::process_id() != g_owner_pid) return;
    std::unique_lock lock(guard->state_);
    if (guard->over_ || guard->stopping_) return;
    const std::string call = status < 0 ? "quick_exit()" : fmt::format("exit({})", status);
    const std::string during = guard->in_case_ ? "'" + guard->case_ + "'" : "a case";
    guard->end_run(call,
                   fmt::format("glint: error: {} called {}: the run stops here (--isolate "
                               "runs each case in a child process and goes on)",
                               during, call),
                   1);
}

void RunGuard::on_fatal_signal(int sig) {
    RunRecord* record = active_record();
    if (!record || os::process_id() != g_owner_pid) return;
    const char* name = os::signal_abbrev(sig);
    const bool written = record->write_abnormal_end(name ? name : "a fatal signal");
    os::write_stderr("glint: error: the run was killed by ");
    os::write_stderr(name ? name : "a fatal signal");
    const char* shown = record->case_in_flight_shown();
    if (std::strcmp(shown, "null") == 0) {  // another thread, between cases or after them
        os::write_stderr(" outside any case");
    } else {
        os::write_stderr(" during ");
        os::write_stderr(shown);
    }
    if (written) {
        os::write_stderr("; its finished rows are in ");
        os::write_stderr(record->target_name().c_str());
    } else if (!record->journal_path().empty()) {
        os::write_stderr("; its finished rows are in the journal ");
        os::write_stderr(record->journal_path().c_str());
    }
    os::write_stderr(" (--isolate runs each case in a child process and goes on)\n");
}

}  // namespace glint::engine
