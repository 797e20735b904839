// The main() of the glint::benchmark_main target: Google Benchmark's BENCHMARK_MAIN.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
