// bench/gate_kernels.hpp: the gate benchmark's suite (bench/gate.sh), shared by its two harnesses:
// glint's (bench/gate_suite.cpp) and Google Benchmark's (bench/gate_google_benchmark.cpp). Built
// twice: A as is, B with GLINT_GATE_B defined, where exactly three rows do more work —
// hash/fnv1a [len=256] hashes 20% more bytes, memcpy [size=4KiB] copies 25% more, and
// select/branchless walks 15% more elements. Every other row is the same code in A and B.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kernels.hpp"

namespace glint_gate {

using namespace glint_bench_kernels;

#ifdef GLINT_GATE_B
inline constexpr bool kSlower = true;
#else
inline constexpr bool kSlower = false;
#endif

// The rows B changes, as glint names them (bench/gate.sh counts them).
inline const std::vector<std::string> kChangedRows = {"hash/fnv1a [len=256]", "memcpy [size=4KiB]",
                                                      "select/branchless"};

// Bytes hash/fnv1a hashes for a row of `len` (B: 20% more for len=256).
inline std::size_t fnv1a_bytes(std::size_t len) {
    return kSlower && len == 256 ? len + len / 5 : len;
}

// Bytes the 4 KiB copy moves (B: 25% more).
inline std::size_t copy4k_bytes() { return kSlower ? 4096 + 1024 : 4096; }

// Elements select/branchless walks (B: 15% more, the first ones again).
inline std::uint64_t select_branchless_gate(const std::vector<std::uint32_t>& data) {
    std::uint64_t sum = select_branchless(data);
    if (!kSlower) return sum;
    const std::size_t extra = data.size() * 15 / 100;
    for (std::size_t i = 0; i < extra; ++i) {
        const std::uint64_t x = glint::black_box(data[i]);
        const std::uint64_t mask = 0 - ((x >> 31) & 1);
        sum += (x & mask) - (x & ~mask);
    }
    return sum;
}

// 64 KiB: a per-call row of tens of microseconds.
inline constexpr std::size_t kBigCopy = 64 * 1024;

// One step of a linear congruential generator: the threaded row's work.
inline std::uint64_t lcg_step(std::uint64_t x) {
    return glint::black_box(x * 6364136223846793005u + 1442695040888963407u);
}

}  // namespace glint_gate
