// bench/kernels.hpp: the bodies of the shipped suite's kernels, shared by both harnesses that
// time them: glint's cases (bench/kernels.cpp) and Google Benchmark's
// (bench/load_google_benchmark.cpp, run by bench/load.sh). Each harness wraps the same inline
// function in its own loop, compiled with the same flags, so a difference between the tools is the
// harness, not the kernel.
#pragma once

#include <glint/bench.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace glint_bench_kernels {

inline std::vector<std::uint32_t> random_words(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<std::uint32_t> v(n);
    for (auto& x : v) x = rng();
    return v;
}

// One dependent add: the latency of an add, about one cycle.
inline std::uint64_t add_step(std::uint64_t x) { return glint::black_box(x + x); }

// popcount over the words.
inline unsigned popcount_sum(const std::vector<std::uint32_t>& words) {
    unsigned total = 0;
    for (std::uint32_t w : words)
        total += static_cast<unsigned>(std::popcount(glint::black_box(w)));
    return total;
}

// FNV-1a over 64 bytes, 8 bytes at a time (a small, latency-bound hash).
inline std::uint64_t hash64(const unsigned char* p) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 64; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    return h;
}

// FNV-1a over `n` bytes, one byte at a time (bench/kernels.cpp's hash/fnv1a, at three lengths).
inline std::uint64_t fnv1a(const unsigned char* p, std::size_t n) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

// The 64-byte block the hash reads.
inline void fill_hash_block(unsigned char (&block)[64]) {
    for (int i = 0; i < 64; ++i) block[i] = static_cast<unsigned char>(i * 7);
}

// The sort's unsorted input: 1,000 ints; each timed call sorts a fresh copy of it.
inline std::vector<int> sort_input() {
    std::vector<int> input(1000);
    std::mt19937 rng(7);
    for (auto& x : input) x = static_cast<int>(rng());
    return input;
}

inline const int* sort_ints(std::vector<int>& v) {
    std::sort(v.begin(), v.end());
    return v.data();
}

// issue 47's case: a copied 512-int vector as input and a cheap body (reversing it, ~55 ns), so
// the input's setup (a 2 KiB copy) costs about what the timed call does.
inline std::vector<int> reverse_input() {
    std::vector<int> base(512);
    for (std::size_t i = 0; i < base.size(); ++i) base[i] = static_cast<int>(base.size() - 1 - i);
    return base;
}

inline int reverse_ints(std::vector<int>& v) {
    std::reverse(v.begin(), v.end());
    return v.front();
}

// A 64-byte copy through black_box'd pointers.
inline void copy64(unsigned char* dst, unsigned char* src) {
    std::memcpy(glint::black_box(dst), glint::black_box(src), 64);
}

// A copy of `bytes` through black_box'd pointers (the caller reads a byte back to verify it).
inline void copy_bytes(unsigned char* dst, const unsigned char* src, std::size_t bytes) {
    std::memcpy(glint::black_box(dst), glint::black_box(src), bytes);
}

// Branchy versus branchless select over random data: the branchy form pays mispredictions.
constexpr std::size_t kSelectN = 4096;

inline std::uint64_t select_branchy(const std::vector<std::uint32_t>& data) {
    std::uint64_t sum = 0;
    for (std::uint32_t v : data) {
        // black_box in each arm keeps the compiler from turning the branch into a cmov.
        if (v & 0x80000000u) sum = glint::black_box(sum + v);
        else sum = glint::black_box(sum - v);
    }
    return sum;
}

inline std::uint64_t select_branchless(const std::vector<std::uint32_t>& data) {
    std::uint64_t sum = 0;
    for (std::uint32_t v : data) {
        const std::uint64_t x = glint::black_box(v);
        const std::uint64_t mask = 0 - ((x >> 31) & 1);  // all ones when the top bit is set
        sum += (x & mask) - (x & ~mask);
    }
    return sum;
}

}  // namespace glint_bench_kernels
