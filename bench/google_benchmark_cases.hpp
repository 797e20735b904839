// bench/google_benchmark_cases.hpp: the Google Benchmark wrappers both of its programs share —
// bench/load_google_benchmark.cpp (bench/load.sh) and bench/gate_google_benchmark.cpp
// (bench/gate.sh): the same bodies (bench/kernels.hpp) glint's cases time.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "kernels.hpp"

namespace glint_bench_gb {

using namespace glint_bench_kernels;

inline void add_chain(benchmark::State& state) {
    std::uint64_t x = 1;
    for (auto _ : state) x = add_step(x);
    benchmark::DoNotOptimize(x);
}

inline void popcount_256(benchmark::State& state) {
    const auto words = random_words(256, 1);
    for (auto _ : state) benchmark::DoNotOptimize(popcount_sum(words));
}

inline void hash_64(benchmark::State& state) {
    alignas(64) unsigned char block[64];
    fill_hash_block(block);
    for (auto _ : state) {
        glint::black_box_ref(block);
        benchmark::DoNotOptimize(hash64(block));
    }
}

// The fresh copy is made with the timer paused, as glint::iter_batched makes it untimed.
inline void sort_1000(benchmark::State& state) {
    const std::vector<int> input = sort_input();
    std::vector<int> v;
    for (auto _ : state) {
        state.PauseTiming();
        v = input;
        state.ResumeTiming();
        benchmark::DoNotOptimize(sort_ints(v));
    }
}

inline void branchy(benchmark::State& state) {
    const auto data = random_words(kSelectN, 3);
    for (auto _ : state) benchmark::DoNotOptimize(select_branchy(data));
}

}  // namespace glint_bench_gb
