// <glint/gbench/state.hpp>: benchmark::State, Counter and the optimisation barriers of the
// Google Benchmark drop-in (<benchmark/benchmark.h>). A State is one call of a benchmark
// function: glint chooses max_iterations, and the State times the loop itself (from its first
// iteration to its end, less paused spans, or the SetIterationTime sum under UseManualTime).
// What differs from Google Benchmark: "Coming from Google Benchmark" in glint's docs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

namespace benchmark {

using IterationCount = std::int64_t;

enum TimeUnit { kNanosecond, kMicrosecond, kMillisecond, kSecond };
enum BigO { oNone, o1, oN, oNSquared, oNCubed, oLogN, oNLogN, oAuto, oLambda };
using BigOFunc = double(IterationCount);
enum StatisticUnit { kTime, kPercentage };
using StatisticsFunc = double(const std::vector<double>&);

class Counter {
  public:
    enum Flags {
        kDefault = 0,
        kIsRate = 1 << 0,
        kAvgThreads = 1 << 1,
        kAvgThreadsRate = kIsRate | kAvgThreads,
        kIsIterationInvariant = 1 << 2,
        kIsIterationInvariantRate = kIsRate | kIsIterationInvariant,
        kAvgIterations = 1 << 3,
        kAvgIterationsRate = kIsRate | kAvgIterations,
        kInvert = 1 << 31
    };
    enum OneK { kIs1000 = 1000, kIs1024 = 1024 };
    Counter(double v = 0., Flags f = kDefault, OneK k = kIs1000) : value(v), flags(f), oneK(k) {}
    operator double const&() const { return value; }
    operator double&() { return value; }
    double value;
    Flags flags;
    OneK oneK;
};
inline constexpr Counter::Flags operator|(const Counter::Flags& a, const Counter::Flags& b) {
    return static_cast<Counter::Flags>(static_cast<int>(a) | static_cast<int>(b));
}
using UserCounters = std::map<std::string, Counter>;

// Keeps `value` and what it computes alive: a small trivially copyable value is read from a
// register or memory, anything else from memory (as Google Benchmark's DoNotOptimize).
template <class T>
inline constexpr bool kRegisterSized = std::is_trivially_copyable_v<T> &&
                                       sizeof(T) <= sizeof(void*);
template <class T>
[[gnu::always_inline]] inline void DoNotOptimize(T const& value) {
    if constexpr (kRegisterSized<T>) asm volatile("" : : "r,m"(value) : "memory");
    else asm volatile("" : : "m"(value) : "memory");
}
template <class T>
[[gnu::always_inline]] inline void DoNotOptimize(T& value) {
    if constexpr (kRegisterSized<T>) asm volatile("" : "+m,r"(value) : : "memory");
    else asm volatile("" : "+m"(value) : : "memory");
}
// Every object in memory is read and written here.
[[gnu::always_inline]] inline void ClobberMemory() { asm volatile("" : : : "memory"); }

class State {
  public:
    struct StateIterator;
    State(IterationCount max_iters, std::vector<std::int64_t> ranges, int thread_i, int n_threads,
          bool manual_time);

    StateIterator begin();
    StateIterator end();
    bool KeepRunning() { return KeepRunningInternal(1, false); }
    bool KeepRunningBatch(IterationCount n) { return KeepRunningInternal(n, true); }

    // Paused spans are left out of the time; a pause and a resume each read the clock once
    // (about 25 ns), and a call that paused has no CPU time (glint reports it as not measured).
    void PauseTiming();
    void ResumeTiming();
    void SkipWithError(const std::string& msg);
    void SkipWithError(const char* msg) { SkipWithError(std::string(msg)); }
    bool error_occurred() const { return error_occurred_; }
    void SetIterationTime(double seconds) { manual_seconds_ += seconds; }

    void SetBytesProcessed(std::int64_t bytes) {
        counters["bytes_per_second"] =
            Counter(static_cast<double>(bytes), Counter::kIsRate, Counter::kIs1024);
    }
    std::int64_t bytes_processed() const { return counter_or_zero("bytes_per_second"); }
    void SetItemsProcessed(std::int64_t items) {
        counters["items_per_second"] = Counter(static_cast<double>(items), Counter::kIsRate);
    }
    std::int64_t items_processed() const { return counter_or_zero("items_per_second"); }
    void SetComplexityN(std::int64_t n) { complexity_n_ = n; }
    std::int64_t complexity_length_n() const { return complexity_n_; }
    void SetLabel(const std::string& label) { label_ = label; }
    void SetLabel(const char* label) { label_ = label; }

    // An argument the instance does not have throws std::out_of_range naming it.
    std::int64_t range(std::size_t pos = 0) const {
        if (pos >= range_.size()) range_error(pos);
        return range_[pos];
    }
    std::int64_t range_x() const { return range(0); }
    std::int64_t range_y() const { return range(1); }
    IterationCount iterations() const {
        return started_ ? max_iterations - total_iterations_ + batch_leftover_ : 0;
    }
    int threads() const { return threads_; }
    int thread_index() const { return thread_index_; }

    const IterationCount max_iterations;
    UserCounters counters;

    // The drop-in's reading of this call (glint's side).
    struct Reading {
        double wall_ns = 0;  // the loop's time less paused spans (manual: the sum given)
        double cpu_ns = -1;  // the thread's CPU time over the same spans (< 0: unread)
        bool finished = false;
    };
    const Reading& reading() const { return reading_; }
    // Called on every thread of a multi-threaded call where the loop starts and where it ends,
    // so all threads run their loops together (fixtures set up on thread 0 first).
    void set_sync(void (*sync)(void*), void* ctx) {
        sync_ = sync;
        sync_ctx_ = ctx;
    }
    const std::string& error_message() const { return error_message_; }
    const std::string& label() const { return label_; }

  private:
    bool KeepRunningInternal(IterationCount n, bool is_batch);
    void StartKeepRunning();
    void FinishKeepRunning();
    std::int64_t counter_or_zero(const char* name) const;
    [[noreturn]] void range_error(std::size_t pos) const;

    IterationCount total_iterations_ = 0;
    IterationCount batch_leftover_ = 0;
    bool started_ = false;
    bool finished_ = false;
    bool error_occurred_ = false;
    bool paused_ = false;
    bool paused_once_ = false;
    bool manual_time_ = false;
    std::vector<std::int64_t> range_;
    std::int64_t complexity_n_ = 0;
    std::string label_;
    std::string error_message_;
    int thread_index_ = 0;
    int threads_ = 1;
    double manual_seconds_ = 0;
    std::int64_t wall_mark_ = 0;
    std::int64_t cpu_mark_ = 0;
    Reading reading_;
    void (*sync_)(void*) = nullptr;
    void* sync_ctx_ = nullptr;

  public:
    struct StateIterator {
        struct __attribute__((unused)) Value {};
        using iterator_category = std::forward_iterator_tag;
        using value_type = Value;
        using reference = Value;
        using pointer = Value;
        using difference_type = std::ptrdiff_t;

        StateIterator() = default;
        explicit StateIterator(State* st)
            : cached_(st->error_occurred_ ? 0 : st->max_iterations), parent_(st) {}
        [[gnu::always_inline]] Value operator*() const { return Value(); }
        [[gnu::always_inline]] StateIterator& operator++() {
            --cached_;
            return *this;
        }
        [[gnu::always_inline]] bool operator!=(StateIterator const&) const {
            if (__builtin_expect(cached_ != 0, 1)) return true;
            parent_->FinishKeepRunning();
            return false;
        }

      private:
        IterationCount cached_ = 0;
        State* parent_ = nullptr;
    };
};

inline State::StateIterator State::begin() {
    StartKeepRunning();
    return StateIterator(this);
}
inline State::StateIterator State::end() { return StateIterator(); }

}  // namespace benchmark
