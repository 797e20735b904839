// benchmark::State of the Google Benchmark drop-in: its loop protocol (as Google Benchmark
// counts iterations) and its own timing of the loop.
#include <chrono>
#include <stdexcept>
#include <string>

#include <glint/gbench/state.hpp>

#include "os/thread_usage.hpp"

namespace benchmark {
namespace {

std::int64_t wall_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace

State::State(IterationCount max_iters, std::vector<std::int64_t> ranges, int thread_i,
             int n_threads, bool manual_time)
    : max_iterations(max_iters),
      manual_time_(manual_time),
      range_(std::move(ranges)),
      thread_index_(thread_i),
      threads_(n_threads) {}

// The CPU clock is read where the loop starts and ends only (a read costs up to 0.5 us in a VM):
// a call that paused has no CPU reading.
void State::StartKeepRunning() {
    started_ = true;
    if (sync_) sync_(sync_ctx_);
    total_iterations_ = error_occurred_ ? 0 : max_iterations;
    cpu_mark_ = glint::os::thread_cpu_ns();
    wall_mark_ = wall_now_ns();
    paused_ = false;
}

void State::FinishKeepRunning() {
    if (!error_occurred_ && !paused_)
        reading_.wall_ns += static_cast<double>(wall_now_ns() - wall_mark_);
    const std::int64_t cpu = glint::os::thread_cpu_ns();
    paused_ = true;
    reading_.cpu_ns =
        paused_once_ || cpu < 0 || cpu_mark_ < 0 ? -1 : static_cast<double>(cpu - cpu_mark_);
    if (sync_) sync_(sync_ctx_);
    total_iterations_ = 0;
    finished_ = true;
    reading_.finished = true;
    if (manual_time_) {
        reading_.wall_ns = manual_seconds_ * 1e9;
        reading_.cpu_ns = -1;
    }
}

bool State::KeepRunningInternal(IterationCount n, bool is_batch) {
    if (total_iterations_ >= n) {
        total_iterations_ -= n;
        return true;
    }
    if (!started_) {
        StartKeepRunning();
        if (!error_occurred_ && total_iterations_ >= n) {
            total_iterations_ -= n;
            return true;
        }
    }
    if (is_batch && total_iterations_ != 0) {
        batch_leftover_ = n - total_iterations_;
        total_iterations_ = 0;
        return true;
    }
    FinishKeepRunning();
    return false;
}

void State::PauseTiming() {
    if (paused_) return;
    reading_.wall_ns += static_cast<double>(wall_now_ns() - wall_mark_);
    paused_ = true;
    paused_once_ = true;
}

void State::ResumeTiming() {
    paused_ = false;
    wall_mark_ = wall_now_ns();
}

void State::SkipWithError(const std::string& msg) {
    error_occurred_ = true;
    if (error_message_.empty()) error_message_ = msg;
    total_iterations_ = 0;
}

std::int64_t State::counter_or_zero(const char* name) const {
    const auto it = counters.find(name);
    return it == counters.end() ? 0 : static_cast<std::int64_t>(it->second.value);
}

void State::range_error(std::size_t pos) const {
    throw std::out_of_range("state.range(" + std::to_string(pos) + "): this instance has " +
                            std::to_string(range_.size()) +
                            " argument(s) (give them with Arg, Args, Range, ...)");
}

}  // namespace benchmark
