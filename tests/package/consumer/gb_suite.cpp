// A Google Benchmark suite, unchanged, built against glint's drop-in: glint::benchmark_main in
// CMake, glint-benchmark-main with pkg-config.
#include <benchmark/benchmark.h>

#include <numeric>
#include <vector>

static void BM_consumer_sum(benchmark::State& state) {
    std::vector<int> v(static_cast<std::size_t>(state.range(0)), 1);
    for (auto _ : state) benchmark::DoNotOptimize(std::accumulate(v.begin(), v.end(), 0));
    state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_consumer_sum)->Arg(8)->Arg(64);
