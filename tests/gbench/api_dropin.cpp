// A suite written for Google Benchmark 1.7 using the API the drop-in serves (names, builder,
// counters, fixtures, captures, templates, RegisterBenchmark). Built against glint::benchmark
// and, where installed, Debian's libbenchmark-dev; both must list the same instances.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

static void BM_sum(benchmark::State& state) {
    std::vector<std::int64_t> v(static_cast<std::size_t>(state.range(0)), 1);
    for (auto _ : state)
        benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), std::int64_t{0}));
    state.SetBytesProcessed(state.iterations() * state.range(0) * 8);
    state.SetItemsProcessed(state.iterations() * state.range(0));
    state.counters["elements"] = static_cast<double>(state.range(0));
    state.counters["adds"] = benchmark::Counter(static_cast<double>(state.range(0)),
                                                benchmark::Counter::kIsIterationInvariantRate);
    state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_sum)->RangeMultiplier(4)->Range(64, 1024);
BENCHMARK(BM_sum)->Arg(64)->UseRealTime();
BENCHMARK(BM_sum)->Arg(64)->Iterations(100);
BENCHMARK(BM_sum)->Arg(64)->Threads(2)->Threads(1);
BENCHMARK(BM_sum)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_sum)
    ->RangeMultiplier(4)
    ->Range(64, 16384)
    ->Complexity(benchmark::oN)
    ->Name("BM_sum_oN");
BENCHMARK(BM_sum)->RangeMultiplier(4)->Range(64, 16384)->Complexity()->Name("BM_sum_auto");

static void BM_pair(benchmark::State& state) {
    std::int64_t x = state.range(0), y = state.range(1);
    for (auto _ : state) {
        benchmark::DoNotOptimize(x);
        benchmark::DoNotOptimize(x * y);
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_pair)->ArgNames({"rows", "cols"})->Args({8, 512})->Args({2, 3});
BENCHMARK(BM_pair)->ArgsProduct({{1, 2}, {3, 4}})->ArgNames({"x", "y"});
static void BM_one(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(state.range(0) + 1);
}
BENCHMARK(BM_one)->DenseRange(0, 4, 2)->Arg(1)->Name("BM_one_dense");

static void BM_manual(benchmark::State& state) {
    for (auto _ : state) state.SetIterationTime(1e-6);
}
BENCHMARK(BM_manual)->UseManualTime();

static void BM_label(benchmark::State& state, std::string text) {
    for (auto _ : state) benchmark::DoNotOptimize(text.size());
    state.SetLabel(text);
}
BENCHMARK_CAPTURE(BM_label, short_text, std::string("abc"));

template <class T>
static void BM_fill(benchmark::State& state) {
    std::vector<T> v(64);
    for (auto _ : state) {
        std::fill(v.begin(), v.end(), T{1});
        benchmark::DoNotOptimize(v.data());
    }
}
BENCHMARK_TEMPLATE(BM_fill, int);
BENCHMARK_TEMPLATE1(BM_fill, double)->ThreadRange(1, 2);
template <class T, class U>
static void BM_convert(benchmark::State& state) {
    T from{3};
    for (auto _ : state) {
        benchmark::DoNotOptimize(from);
        benchmark::DoNotOptimize(static_cast<U>(from));
    }
}
BENCHMARK_TEMPLATE2(BM_convert, int, double)->DenseThreadRange(1, 3, 2);
BENCHMARK_TEMPLATE(BM_convert, double, int);

class Buffer : public benchmark::Fixture {
  public:
    void SetUp(const benchmark::State& state) override {
        data.assign(static_cast<std::size_t>(state.range(0)), 3);
    }
    void TearDown(const benchmark::State&) override { data.clear(); }
    std::vector<int> data;
};
BENCHMARK_DEFINE_F(Buffer, Max)(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(*std::max_element(data.begin(), data.end()));
}
BENCHMARK_REGISTER_F(Buffer, Max)->Arg(128)->Arg(256);
class Tally : public benchmark::Fixture {
  public:
    void SetUp(benchmark::State&) override { data.assign(16, 1); }
    std::vector<int> data;
};
BENCHMARK_F(Tally, Empty)(benchmark::State& state) {
    while (state.KeepRunning()) benchmark::DoNotOptimize(data.size());
}

static void BM_skip(benchmark::State& state) {
    if (state.range(0) == 0) {
        state.SkipWithError("zero is not a size");
        return;
    }
    for (auto _ : state) benchmark::DoNotOptimize(state.range(0));
}

int main(int argc, char** argv) {
    benchmark::RegisterBenchmark("BM_registered", [](benchmark::State& state) {
        for (auto _ : state) benchmark::DoNotOptimize(state.iterations());
    })->Arg(7);
    if (argc > 1 && std::string(argv[argc - 1]) == "--with-skip") {
        benchmark::RegisterBenchmark("BM_skip", BM_skip)->Arg(0);
        --argc;
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
#if defined(GLINT_DROPIN_TEST)
    return benchmark::internal::GlintExitStatus();
#else
    return 0;
#endif
}
