// engine/runner/keeping/table_guard.hpp: the run's table reporter behind a lock, and the output
// stream it writes watched.
//
// Every call is forwarded to the real reporter under a mutex, so a thread other than the run's
// (the supervisor ending a run whose case does not return, the exit hook) can end the table:
// abandon() takes the lock (unless the run holds it longer than `wait`), ends the group in
// progress with the rows it has, and makes every later call a no-op. After each call the
// stream is checked: the first write error is remembered (write_error()), and a closed pipe
// (EPIPE) calls on_broken_pipe, which asks the run to stop as SIGPIPE would.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <mutex>

#include "engine/report/reporter.hpp"

namespace glint::engine {

class TableGuard final : public ForwardingTableReporter {
  public:
    TableGuard(TableReporter& inner, std::FILE* out) : ForwardingTableReporter(inner), out_(out) {}

    void begin_group(const GroupInfo& group) override;
    void end_group() override;
    // Forwarded (live: held until the group's final frame); printed at once once abandoned.
    void diagnostic(const std::string& line) override;

    // The run's thread, when it stops early: ends the group in progress.
    void end_open_group();
    // Another thread: as end_open_group, then ignores everything. False when the lock was not
    // free within `wait` (the table is left as it is).
    bool abandon(std::chrono::milliseconds wait);

    // errno of the first failed write to the stream (0: none).
    int write_error() const { return write_error_; }
    std::function<void()> on_broken_pipe;

  private:
    void pass(const std::function<void()>& call) override;

    std::FILE* out_;
    std::mutex mutex_;
    bool group_open_ = false;
    bool abandoned_ = false;
    int write_error_ = 0;
};

}  // namespace glint::engine
