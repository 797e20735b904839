// bench/kernels.cpp: the shipped suite's "main job": real kernels from nanoseconds to
// microseconds. Each one routes its inputs and results through glint::black_box so nothing is
// folded away, and each doubles as a test (run without --bench: every case runs once).
#include <glint/bench.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

std::vector<std::uint32_t> random_words(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<std::uint32_t> v(n);
    for (auto& x : v) x = rng();
    return v;
}

// FNV-1a over 64 bytes, 8 bytes at a time (a small, latency-bound hash).
std::uint64_t hash64(const unsigned char* p) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 64; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
    }
    return h;
}

}  // namespace

// One dependent add per iteration: the latency of an add, about one cycle.
GLINT_BENCH("add_chain") {
    std::uint64_t x = 1;
    glint::iter([&] { x = glint::black_box(x + x); });
}

// popcount over 256 words.
GLINT_BENCH("popcount/256") {
    const auto words = random_words(256, 1);
    glint::iter([&] {
        unsigned total = 0;
        for (std::uint32_t w : words) total += static_cast<unsigned>(std::popcount(glint::black_box(w)));
        return total;
    });
}

// A 64-byte hash.
GLINT_BENCH("hash/64B") {
    alignas(64) unsigned char block[64];
    for (int i = 0; i < 64; ++i) block[i] = static_cast<unsigned char>(i * 7);
    glint::iter([&] {
        glint::black_box_ref(block);
        return hash64(block);
    });
}

// std::sort of 1,000 ints: each iteration sorts a fresh copy of the same unsorted input; the
// copy is setup (glint::iter_batched builds it untimed), so only the sort is measured.
GLINT_BENCH("sort", glint::Metric{"elem", 1000}) {
    std::vector<int> input(1000);
    std::mt19937 rng(7);
    for (auto& x : input) x = static_cast<int>(rng());
    glint::iter_batched([&] { return input; },
                        [](std::vector<int>& v) {
                            std::sort(v.begin(), v.end());
                            return v.data();
                        });
}

// memcpy at three sizes, with a bytes/s column. 64 bytes is a batched case (a 64-byte copy costs
// less than the per-call clock's own bracket, so per call it would render only as a bound);
// the larger copies are per-call rows that verify their result.
GLINT_BENCH("memcpy/64B", glint::Metric{"B", 64}) {
    alignas(64) static unsigned char src[64], dst[64];
    for (int i = 0; i < 64; ++i) src[i] = 0x5a;
    glint::iter([&] {
        std::memcpy(glint::black_box(+dst), glint::black_box(+src), 64);
        glint::black_box_ref(dst);
    });
}

namespace {
void register_memcpy(const char* size_name, std::size_t bytes) {
    auto src = std::make_shared<std::vector<unsigned char>>(bytes, 0x5a);
    auto dst = std::make_shared<std::vector<unsigned char>>(bytes);
    glint::bench_case(
        {.name = "memcpy", .labels = {{"size", size_name}},
         .metrics = {glint::Metric{"B", static_cast<double>(bytes), glint::Metric::rate}}},
        [=] {
            std::memcpy(glint::black_box(dst->data()), glint::black_box(src->data()), bytes);
            return (*dst)[bytes - 1];
        },
        [](unsigned char last) { return last == 0x5a; });
}
}  // namespace

GLINT_BENCH("memcpy") {
    register_memcpy("4KiB", 4096);
    register_memcpy("1MiB", 1 << 20);
}

// Branchy versus branchless select over random data: the branchy form pays mispredictions.
namespace {
constexpr std::size_t kSelectN = 4096;
}

GLINT_BENCH("select/branchy") {
    const auto data = random_words(kSelectN, 3);
    glint::iter([&] {
        std::uint64_t sum = 0;
        for (std::uint32_t v : data) {
            // black_box in each arm keeps the compiler from turning the branch into a cmov.
            if (v & 0x80000000u) sum = glint::black_box(sum + v);
            else sum = glint::black_box(sum - v);
        }
        return sum;
    });
}

GLINT_BENCH("select/branchless") {
    const auto data = random_words(kSelectN, 3);
    glint::iter([&] {
        std::uint64_t sum = 0;
        for (std::uint32_t v : data) {
            const std::uint64_t x = glint::black_box(v);
            const std::uint64_t mask = 0 - ((x >> 31) & 1);  // all ones when the top bit is set
            sum += (x & mask) - (x & ~mask);
        }
        return sum;
    });
}
