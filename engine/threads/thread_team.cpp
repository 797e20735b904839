#include "engine/threads/thread_team.hpp"

#include "engine/timing/clock.hpp"
#include "engine/timing/core_probe.hpp"
#include "os/cpu_affinity.hpp"
#include "os/thread_usage.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

namespace glint::engine {
namespace {

thread_local unsigned t_thread_index = 0;
std::vector<unsigned> g_worker_cpus;  // set_worker_cpus: before any team exists

// How long an idle worker spins (yielding) before it sleeps: longer than the gap between two
// samples of a case (a checkpoint and a clock read), far shorter than a human notices.
constexpr auto kSpinBeforeSleep = std::chrono::milliseconds(2);

// Spins until done() holds, yielding the CPU between tests so a team larger than the machine
// (or a loaded one) still makes progress; returns false when `until` passed first.
template <class Done>
bool spin_until(Done&& done, std::chrono::steady_clock::time_point until) {
    for (unsigned i = 0;; ++i) {
        if (done()) return true;
        if (i % 64 == 63) {
            if (std::chrono::steady_clock::now() >= until) return false;
            std::this_thread::yield();
        }
    }
}

}  // namespace

std::optional<std::string> threaded_batch_problem(const glint::detail::Batch& batch) {
    if (batch.prepare)
        return std::string(
            "glint::iter_batched runs on one thread: its inputs are built for one; "
            "use glint::iter with per-thread state indexed by glint::thread_index()");
    if (batch.reference)
        return std::string(
            "an instruction-level case (glint::asm_iter) runs on one thread: its "
            "difference is timed on one core");
    return std::nullopt;
}

ThreadTeam::ThreadTeam(glint::detail::Batch inner, unsigned threads, std::vector<unsigned> cpus)
    : inner_(inner), shares_(threads > 1 ? threads : 1), cpus_(std::move(cpus)) {
    if (cpus_.size() < shares_.size()) cpus_.clear();
    if (!cpus_.empty()) {
        caller_cpus_ = os::thread_affinity();
        if (caller_cpus_.empty() || os::set_thread_affinity({cpus_[0]}) != 0) caller_cpus_.clear();
    }
    workers_.reserve(threads > 1 ? threads - 1 : 0);
    try {
        for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
    } catch (const std::exception& e) {
        const auto* error = dynamic_cast<const std::system_error*>(&e);
        const std::string why = error ? error->code().message() : "out of memory";
        const std::size_t failed = workers_.size() + 2;  // the caller is thread 1
        stop_workers();
        throw std::runtime_error(
            "thread " + std::to_string(failed) + " of " + std::to_string(threads) +
            " could not be created (" + why +
            "): a limit on threads or memory (ulimit -u, ulimit -v, a container's pid limit) "
            "holds fewer; lower glint::threads or raise the limit");
    }
}

void ThreadTeam::stop_workers() {
    stop_.store(true);
    generation_.fetch_add(1);
    wake_sleepers(true);
    for (auto& w : workers_) w.join();
    workers_.clear();
    if (!caller_cpus_.empty()) (void)os::set_thread_affinity(caller_cpus_);
    caller_cpus_.clear();
}

ThreadTeam::~ThreadTeam() { stop_workers(); }

void ThreadTeam::run(void* ctx, std::uint64_t n) {
    auto& team = *static_cast<ThreadTeam*>(ctx);
    team.n_ = n;
    team.finished_.store(0, std::memory_order_relaxed);
    team.generation_.fetch_add(1);  // seq_cst: pairs with a worker's sleeping_ increment
    team.wake_sleepers(false);
    team.run_share(0, n);
    const auto others = static_cast<unsigned>(team.workers_.size());
    spin_until([&] { return team.finished_.load(std::memory_order_acquire) == others; },
               std::chrono::steady_clock::time_point::max());
    if (team.error_) std::rethrow_exception(std::exchange(team.error_, nullptr));
}

glint::detail::Batch::SelfTiming ThreadTeam::timing(void* ctx) {
    const auto& team = *static_cast<const ThreadTeam*>(ctx);
    double wall = 0, lost = 0;
    std::int64_t first_start = team.shares_.front().start, last_start = first_start;
    bool cpu_read = true;
    for (const Share& s : team.shares_) {
        wall = std::max(wall, static_cast<double>(s.stop - s.start));
        first_start = std::min(first_start, s.start);
        last_start = std::max(last_start, s.start);
        if (s.cpu < 0) cpu_read = false;
        else lost = std::max(lost, static_cast<double>(s.stop - s.start - s.cpu));
    }
    lost = std::max(lost, static_cast<double>(last_start - first_start));  // not run together
    double slowest_core = 0;
    for (const Share& s : team.shares_) slowest_core = std::max(slowest_core, s.core_step_ns);
    return {wall, cpu_read ? std::max(0.0, wall - lost) : NAN, slowest_core};
}

void ThreadTeam::run_share(unsigned index, std::uint64_t n) {
    // The CPU reads lie outside the clock reads: the CPU span holds the wall span.
    const std::int64_t cpu_start = os::thread_cpu_ns();
    const std::int64_t start = now_ns();
    try {
        inner_.run(inner_.ctx, n);
    } catch (...) {
        std::lock_guard lock(error_mutex_);
        if (!error_) error_ = std::current_exception();
    }
    const std::int64_t stop = now_ns();
    const std::int64_t cpu_stop = os::thread_cpu_ns();
    shares_[index] = {start, stop, cpu_start >= 0 && cpu_stop >= 0 ? cpu_stop - cpu_start : -1,
                      probe_step_ns()};
}

void set_worker_cpus(std::vector<unsigned> cpus) { g_worker_cpus = std::move(cpus); }

std::vector<unsigned> team_cpus(unsigned threads) {
    const std::vector<unsigned> mine = os::thread_affinity();
    std::vector<unsigned> all = mine;
    all.insert(all.end(), g_worker_cpus.begin(), g_worker_cpus.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    if (all.empty() || all.size() < threads) return {};
    std::vector<unsigned> order;
    if (mine.size() == 1) order.push_back(mine.front());
    for (const unsigned cpu : all)
        if (order.size() < threads && std::find(order.begin(), order.end(), cpu) == order.end())
            order.push_back(cpu);
    return order;
}

// After generation_ moved: a worker that counted itself asleep is woken (under the mutex, so
// one between its count and its wait cannot miss it); `always` for the last wake-up.
void ThreadTeam::wake_sleepers(bool always) {
    if (!always && sleeping_.load() == 0) return;
    std::lock_guard lock(sleep_mutex_);
    wake_.notify_all();
}

void ThreadTeam::work(unsigned index) {
    t_thread_index = index;
    // Refused: the worker runs where it was created.
    if (!cpus_.empty()) (void)os::set_thread_affinity({cpus_[index]});
    else if (!g_worker_cpus.empty()) (void)os::set_thread_affinity(g_worker_cpus);
    std::uint64_t seen = 0;
    for (;;) {
        const auto until = std::chrono::steady_clock::now() + kSpinBeforeSleep;
        if (!spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; },
                        until)) {
            std::unique_lock lock(sleep_mutex_);
            sleeping_.fetch_add(1);  // seq_cst, then the wait re-reads generation_
            wake_.wait(lock, [&] { return generation_.load() != seen; });
            sleeping_.fetch_sub(1);
            continue;
        }
        seen = generation_.load(std::memory_order_acquire);
        if (stop_.load()) return;
        run_share(index, n_);
        finished_.fetch_add(1, std::memory_order_release);
    }
}

}  // namespace glint::engine

namespace glint {

unsigned thread_index() noexcept { return engine::t_thread_index; }

}  // namespace glint
