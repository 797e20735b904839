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

// A fresh copy of `input` each iteration, made with the timer paused (as glint::iter_batched
// makes it untimed), then body(copy) timed.
template <class Body>
void on_fresh_copy(benchmark::State& state, const std::vector<int>& input, Body body) {
    std::vector<int> v;
    for (auto _ : state) {
        state.PauseTiming();
        v = input;
        state.ResumeTiming();
        benchmark::DoNotOptimize(body(v));
    }
}

inline void sort_1000(benchmark::State& state) { on_fresh_copy(state, sort_input(), sort_ints); }

// issue 47's iter_batched case: a copied 512-int vector and a cheap body.
inline void reverse_512(benchmark::State& state) {
    on_fresh_copy(state, reverse_input(), reverse_ints);
}

inline void branchy(benchmark::State& state) {
    const auto data = random_words(kSelectN, 3);
    for (auto _ : state) benchmark::DoNotOptimize(select_branchy(data));
}

}  // namespace glint_bench_gb
