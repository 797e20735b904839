// bench/kernel_cases.hpp: the glint cases both suites time alike — the shipped suite
// (bench/kernels.cpp) and the gate benchmark's (bench/gate_suite.cpp): add_chain, popcount/256,
// hash/64B and select/branchy over bench/kernels.hpp. Included by exactly one source of each
// program (a GLINT_BENCH registers its case once per program).
#pragma once

#include <glint/bench.hpp>

#include <cstdint>

#include "kernels.hpp"

// One dependent add per iteration: the latency of an add, about one cycle.
GLINT_BENCH("add_chain") {
    std::uint64_t x = 1;
    glint::iter([&] { x = glint_bench_kernels::add_step(x); });
}

// popcount over 256 words.
GLINT_BENCH("popcount/256") {
    const auto words = glint_bench_kernels::random_words(256, 1);
    glint::iter([&] { return glint_bench_kernels::popcount_sum(words); });
}

// A 64-byte hash.
GLINT_BENCH("hash/64B") {
    alignas(64) unsigned char block[64];
    glint_bench_kernels::fill_hash_block(block);
    glint::iter([&] {
        glint::black_box_ref(block);
        return glint_bench_kernels::hash64(block);
    });
}

// Branchy select over random data: it pays mispredictions (select/branchless is each suite's).
GLINT_BENCH("select/branchy") {
    const auto data = glint_bench_kernels::random_words(glint_bench_kernels::kSelectN, 3);
    glint::iter([&] { return glint_bench_kernels::select_branchy(data); });
}
