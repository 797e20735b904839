// engine/threads/thread_team.hpp: the workers of a multi-threaded case (glint::threads, N > 1).
// batch() runs the inner batch's n iterations on each of N threads at once (the calling thread
// is thread 0; glint::thread_index() numbers them) and returns when the slowest has finished.
// It times itself (Batch::self_timing): each thread reads the clock and its CPU clock around
// its own share, so a late wake-up is not the row's time; a run reads as the slowest thread's
// time, and as CPU that time less the most any thread lost, or less the start skew when the
// threads began further apart (they did not run together). Between runs workers wait spinning
// (yielding), then asleep. An exception on any thread is rethrown by run() on the calling
// thread once every thread has finished the run (the first one thrown wins).
// Contract: only the thread that built the team calls run(), one run at a time; the inner batch
// has no inputs and no reference (threaded_batch_problem). Rationale: docs/threads.md.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <glint/bench.hpp>

namespace glint::engine {

// Why a bench_case row cannot take glint::threads.
inline constexpr const char* kBenchCaseOneThread =
    "glint::bench_case runs on one thread: glint::threads applies to glint::iter and whole-body "
    "cases";

// Why `batch` cannot run on several threads (nullopt: it can): iter_batched's inputs are built
// for one thread, an instruction-level case times a difference on one.
std::optional<std::string> threaded_batch_problem(const glint::detail::Batch& batch);

// The CPUs a team's workers run on: set once by the runner from its placement (the CPUs the
// run could use before --pin pinned the measuring thread, which the workers would otherwise
// inherit and share); empty (the default): the creating thread's.
void set_worker_cpus(std::vector<unsigned> cpus);

// A CPU for each thread of a team of `threads`, so all run at once (the scheduler, left alone,
// often wakes two threads on one CPU and they time-share it for milliseconds): the calling
// thread's CPUs and the workers', a pinned calling thread keeping its one. Empty when there
// are fewer CPUs than threads (the scheduler shares them) or none is known.
std::vector<unsigned> team_cpus(unsigned threads);

class ThreadTeam {
  public:
    // `cpus` (team_cpus): thread i runs on cpus[i], the calling thread until the team ends, when
    // its own placement is restored; empty: the workers run on set_worker_cpus's CPUs.
    // A thread that cannot be created (a limit on threads or memory) throws
    // std::runtime_error naming the limit, the workers already started stopped and joined.
    ThreadTeam(glint::detail::Batch inner, unsigned threads, std::vector<unsigned> cpus = {});
    ~ThreadTeam();  // stops and joins the workers, restores the caller's placement
    ThreadTeam(const ThreadTeam&) = delete;
    ThreadTeam& operator=(const ThreadTeam&) = delete;

    // The batch that runs the inner one on every thread of the team.
    glint::detail::Batch batch() {
        glint::detail::Batch b{&ThreadTeam::run, this};
        b.self_timing = &ThreadTeam::timing;
        return b;
    }
    unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }

  private:
    static void run(void* ctx, std::uint64_t n);
    static glint::detail::Batch::SelfTiming timing(void* ctx);
    void run_share(unsigned index,
                   std::uint64_t n);  // a thread's n iterations, read; keeps the first exception
    void work(unsigned index);
    void stop_workers();  // stops and joins the workers, restores the caller's placement
    void wake_sleepers(bool always);

    glint::detail::Batch inner_;
    std::uint64_t n_ = 0;                       // written before generation_ is bumped
    std::atomic<std::uint64_t> generation_{0};  // one more per run
    std::atomic<unsigned> finished_{0};         // workers done with the current run
    std::atomic<unsigned> sleeping_{0};         // workers asleep on wake_
    // A worker sleeps on a condition variable, not on generation_.wait(): libstdc++ 12's atomic
    // wait without a futex (mingw-w64) lost a wake-up (docs/windows.md).
    std::mutex sleep_mutex_;
    std::condition_variable wake_;
    std::atomic<bool> stop_{false};
    struct Share {  // one thread's reading of its share of the last run
        std::int64_t start = 0, stop = 0, cpu = -1;  // ns (now_ns); cpu < 0: unread
        double core_step_ns = 0;  // its core-speed probe after the share (the run's: the slowest)
    };
    std::vector<Share> shares_;  // by thread; each written by its thread before finished_
    std::mutex error_mutex_;
    std::exception_ptr error_;
    std::vector<unsigned> cpus_;         // by thread; empty: not placed
    std::vector<unsigned> caller_cpus_;  // the calling thread's placement before the team
    std::vector<std::thread> workers_;   // threads 1 .. N-1
};

}  // namespace glint::engine
