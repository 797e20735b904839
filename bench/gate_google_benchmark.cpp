// bench/gate_google_benchmark.cpp: Google Benchmark's side of the gate benchmark (bench/gate.sh):
// the rows of bench/gate_suite.cpp but the instruction-level ones (Google Benchmark has none),
// the same bodies (bench/gate_kernels.hpp) in its harness, named as glint names them. Built as
// glint_gate_gbench_a and glint_gate_gbench_b (GLINT_GATE_B) when Google Benchmark is installed.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "gate_kernels.hpp"
#include "google_benchmark_cases.hpp"

namespace {

using namespace glint_gate;
using namespace glint_bench_gb;

void fnv1a_len(benchmark::State& state, std::size_t len) {
    const std::vector<unsigned char> bytes(fnv1a_bytes(len), 0xa5);
    for (auto _ : state) benchmark::DoNotOptimize(fnv1a(bytes.data(), bytes.size()));
}

void copy_n(benchmark::State& state, std::size_t bytes) {
    std::vector<unsigned char> src(bytes, 0x5a), dst(bytes);
    for (auto _ : state) {
        copy_bytes(dst.data(), src.data(), bytes);
        benchmark::DoNotOptimize(dst[bytes - 1]);
    }
}

void branchless(benchmark::State& state) {
    const auto data = random_words(kSelectN, 3);
    for (auto _ : state) benchmark::DoNotOptimize(select_branchless_gate(data));
}

std::uint64_t g_lcg[2][8];  // each thread's state on a cache line of its own

void lcg(benchmark::State& state) {
    std::uint64_t& value = g_lcg[state.thread_index()][0];
    value = 1;
    for (auto _ : state) value = lcg_step(value);
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::RegisterBenchmark("add_chain", add_chain);
    benchmark::RegisterBenchmark("popcount/256", popcount_256);
    benchmark::RegisterBenchmark("hash/64B", hash_64);
    for (std::size_t len : {16, 256, 4096})
        benchmark::RegisterBenchmark(("hash/fnv1a [len=" + std::to_string(len) + "]").c_str(),
                                     [len](benchmark::State& s) { fnv1a_len(s, len); });
    benchmark::RegisterBenchmark("sort", sort_1000);
    benchmark::RegisterBenchmark("memcpy [size=4KiB]",
                                 [](benchmark::State& s) { copy_n(s, copy4k_bytes()); });
    benchmark::RegisterBenchmark("memcpy [size=64KiB]",
                                 [](benchmark::State& s) { copy_n(s, kBigCopy); });
    benchmark::RegisterBenchmark("select/branchy", branchy);
    benchmark::RegisterBenchmark("select/branchless", branchless);
    benchmark::RegisterBenchmark("lcg [threads=2]", lcg)->Threads(2);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
