// bench/load_google_benchmark.cpp: the shipped suite's kernels (bench/kernels.hpp, the same
// bodies bench/kernels.cpp times with glint) under Google Benchmark, for bench/load.sh, which
// runs both idle and beside a pinned competitor. Each benchmark is named as load.sh keys glint's
// row: the case name, then its labels in brackets ("memcpy[size=4KiB]"). Built only when Google
// Benchmark is installed (Debian: libbenchmark-dev). Flags are Google Benchmark's own.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "google_benchmark_cases.hpp"
#include "kernels.hpp"

namespace {

using namespace glint_bench_kernels;
using namespace glint_bench_gb;

void memcpy_64(benchmark::State& state) {
    alignas(64) static unsigned char src[64], dst[64];
    for (int i = 0; i < 64; ++i) src[i] = 0x5a;
    for (auto _ : state) {
        copy64(+dst, +src);
        glint::black_box_ref(dst);
    }
}

void memcpy_n(benchmark::State& state, std::size_t bytes) {
    std::vector<unsigned char> src(bytes, 0x5a), dst(bytes);
    for (auto _ : state) {
        copy_bytes(dst.data(), src.data(), bytes);
        benchmark::DoNotOptimize(dst[bytes - 1]);
    }
    if (dst[bytes - 1] != 0x5a) state.SkipWithError("the copy did not arrive");
}

void branchless(benchmark::State& state) {
    const auto data = random_words(kSelectN, 3);
    for (auto _ : state) benchmark::DoNotOptimize(select_branchless(data));
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::RegisterBenchmark("add_chain", add_chain);
    benchmark::RegisterBenchmark("popcount/256", popcount_256);
    benchmark::RegisterBenchmark("hash/64B", hash_64);
    benchmark::RegisterBenchmark("sort", sort_1000);
    benchmark::RegisterBenchmark("reverse512", reverse_512);
    benchmark::RegisterBenchmark("memcpy/64B", memcpy_64);
    // Arg() would append "/4096" to the name: each size is a lambda of its own instead.
    benchmark::RegisterBenchmark("memcpy[size=4KiB]",
                                 [](benchmark::State& s) { memcpy_n(s, 4096); });
    benchmark::RegisterBenchmark("memcpy[size=1MiB]",
                                 [](benchmark::State& s) { memcpy_n(s, 1 << 20); });
    benchmark::RegisterBenchmark("select/branchy", branchy);
    benchmark::RegisterBenchmark("select/branchless", branchless);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
