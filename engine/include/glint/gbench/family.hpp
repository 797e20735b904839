// <glint/gbench/family.hpp>: the benchmark families of the Google Benchmark drop-in
// (<benchmark/benchmark.h>): benchmark::internal::Benchmark and its builder, Fixture,
// RegisterBenchmark, Initialize / RunSpecifiedBenchmarks / Shutdown. A family expands into
// instances named as Google Benchmark names them (BM_x/8/512, BM_x/threads:2, ...); each instance
// becomes one glint case when RunSpecifiedBenchmarks runs glint::main.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <glint/gbench/state.hpp>

namespace benchmark {
namespace internal {

class Benchmark {
  public:
    virtual ~Benchmark();
    Benchmark(const Benchmark&) = delete;
    Benchmark& operator=(const Benchmark&) = delete;

    Benchmark* Name(const std::string& name);
    Benchmark* Arg(std::int64_t x);
    Benchmark* Unit(TimeUnit unit);
    Benchmark* Range(std::int64_t start, std::int64_t limit);
    Benchmark* DenseRange(std::int64_t start, std::int64_t limit, int step = 1);
    Benchmark* Args(const std::vector<std::int64_t>& args);
    Benchmark* ArgPair(std::int64_t x, std::int64_t y) { return Args({x, y}); }
    Benchmark* Ranges(const std::vector<std::pair<std::int64_t, std::int64_t>>& ranges);
    Benchmark* ArgsProduct(const std::vector<std::vector<std::int64_t>>& arglists);
    Benchmark* ArgName(const std::string& name);
    Benchmark* ArgNames(const std::vector<std::string>& names);
    Benchmark* RangePair(std::int64_t lo1, std::int64_t hi1, std::int64_t lo2, std::int64_t hi2) {
        return Ranges({{lo1, hi1}, {lo2, hi2}});
    }
    Benchmark* Apply(void (*func)(Benchmark* benchmark));
    Benchmark* Setup(void (*setup)(const State&));
    Benchmark* Teardown(void (*teardown)(const State&));
    Benchmark* RangeMultiplier(int multiplier);
    Benchmark* MinTime(double t);
    Benchmark* MinWarmUpTime(double t);
    Benchmark* Iterations(IterationCount n);
    Benchmark* Repetitions(int n);
    Benchmark* ReportAggregatesOnly(bool value = true);
    Benchmark* DisplayAggregatesOnly(bool value = true);
    Benchmark* MeasureProcessCPUTime();
    Benchmark* UseRealTime();
    Benchmark* UseManualTime();
    Benchmark* Complexity(BigO complexity = benchmark::oAuto);
    Benchmark* Complexity(BigOFunc* complexity);
    Benchmark* ComputeStatistics(const std::string& name, StatisticsFunc* statistics,
                                 StatisticUnit unit = kTime);
    Benchmark* Threads(int t);
    Benchmark* ThreadRange(int min_threads, int max_threads);
    Benchmark* DenseThreadRange(int min_threads, int max_threads, int stride = 1);
    Benchmark* ThreadPerCpu();

    virtual void Run(State& state) = 0;

    // glint's side: what the builder recorded (the drop-in's runner reads it).
    struct Spec {
        std::string name;
        std::vector<std::vector<std::int64_t>> args;
        std::vector<std::string> arg_names;
        std::vector<int> thread_counts;
        int range_multiplier = 8;
        double min_time = 0, min_warmup_time = 0;  // seconds; 0: not given
        IterationCount iterations = 0;             // 0: not given
        int repetitions = 0;                       // 0: not given
        bool use_real_time = false, use_manual_time = false, process_cpu_time = false;
        bool has_unit = false;  // Unit() was called
        TimeUnit unit = kNanosecond;
        BigO complexity = oNone;
        bool aggregates_only = false;
        void (*setup)(const State&) = nullptr;
        void (*teardown)(const State&) = nullptr;
        std::vector<std::string> unsupported;  // constructs named at the first run
    };
    const Spec& spec() const { return spec_; }

  protected:
    explicit Benchmark(const char* name);
    void SetName(const char* name) { spec_.name = name; }

  private:
    template <class Field, class Value>
    Benchmark* with(Field& field, Value value) {
        field = std::move(value);
        return this;
    }
    Spec spec_;
};

using Function = void(State&);

class FunctionBenchmark : public Benchmark {
  public:
    FunctionBenchmark(const char* name, Function* func) : Benchmark(name), func_(func) {}
    void Run(State& st) override { func_(st); }

  private:
    Function* func_;
};

template <class Lambda>
class LambdaBenchmark : public Benchmark {
  public:
    template <class L>
    LambdaBenchmark(const char* name, L&& lambda)
        : Benchmark(name), lambda_(std::forward<L>(lambda)) {}
    void Run(State& st) override { lambda_(st); }

  private:
    Lambda lambda_;
};

// Takes ownership; the family is expanded when the benchmarks run. `optimized` / `assertions`:
// how the registering translation unit was compiled (the run header warns about either).
Benchmark* RegisterFamily(Benchmark* family, bool optimized, bool assertions);
inline Benchmark* RegisterBenchmarkInternal(Benchmark* family) {
#if defined(__OPTIMIZE__) && defined(NDEBUG)
    return RegisterFamily(family, true, false);
#elif defined(__OPTIMIZE__)
    return RegisterFamily(family, true, true);
#elif defined(NDEBUG)
    return RegisterFamily(family, false, false);
#else
    return RegisterFamily(family, false, true);
#endif
}
int InitializeStreams();
// glint::main's exit status from the last RunSpecifiedBenchmarks (BENCHMARK_MAIN returns it).
int GlintExitStatus();

}  // namespace internal

class Fixture : public internal::Benchmark {
  public:
    Fixture() : internal::Benchmark("") {}
    void Run(State& st) override {
        this->SetUp(st);
        this->BenchmarkCase(st);
        this->TearDown(st);
    }
    virtual void SetUp(const State&) {}
    virtual void TearDown(const State&) {}
    virtual void SetUp(State& st) { SetUp(static_cast<const State&>(st)); }
    virtual void TearDown(State& st) { TearDown(static_cast<const State&>(st)); }

  protected:
    virtual void BenchmarkCase(State&) = 0;
};

inline internal::Benchmark* RegisterBenchmark(const char* name, internal::Function* fn) {
    return internal::RegisterBenchmarkInternal(new internal::FunctionBenchmark(name, fn));
}
template <class Lambda>
internal::Benchmark* RegisterBenchmark(const char* name, Lambda&& fn) {
    using L = std::remove_cv_t<std::remove_reference_t<Lambda>>;
    return internal::RegisterBenchmarkInternal(
        new internal::LambdaBenchmark<L>(name, std::forward<Lambda>(fn)));
}
template <class Lambda, class... Args>
internal::Benchmark* RegisterBenchmark(const char* name, Lambda&& fn, Args&&... args) {
    return RegisterBenchmark(name, [=](State& st) { fn(st, args...); });
}

// Reads and removes the Google Benchmark flags of argv (glint's own stay for glint::main).
void Initialize(int* argc, char** argv, void (*help_printer)() = nullptr);
void Shutdown();
// glint prints unknown flags itself, with their fix: always false here.
bool ReportUnrecognizedArguments(int argc, char** argv);
// Runs every family's instances as glint cases (glint::main with the flags Initialize kept).
// Returns the number of instances selected by --benchmark_filter.
std::size_t RunSpecifiedBenchmarks();
std::size_t RunSpecifiedBenchmarks(std::string spec);
void SetDefaultTimeUnit(TimeUnit unit);
TimeUnit GetDefaultTimeUnit();
void AddCustomContext(const std::string& key, const std::string& value);

}  // namespace benchmark
