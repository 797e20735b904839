// bench/kernels.cpp: the shipped suite's "main job": real kernels from nanoseconds to
// microseconds. Each one routes its inputs and results through glint::black_box so nothing is
// folded away, and each doubles as a test (run without --bench: every case runs once).
#include <glint/bench.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel_cases.hpp"  // add_chain, popcount/256, hash/64B: shared with bench/gate_suite.cpp
#include "kernels.hpp"       // the bodies, shared with bench/load_google_benchmark.cpp

using namespace glint_bench_kernels;

// FNV-1a over 16 B, 256 B and 4 KiB: the B/s column follows the parameter, each row's amount
// being its own length (a glint::Metric given to iter).
GLINT_BENCH("hash/fnv1a", glint::values("len", {16, 256, 4096})) {
    const std::vector<unsigned char> bytes(static_cast<std::size_t>(glint::param()), 0xa5);
    glint::iter([&] { return fnv1a(glint::black_box(bytes.data()), bytes.size()); },
                glint::Metric{"B", double(bytes.size())});
}

// std::sort of 1,000 ints: each iteration sorts a fresh copy of the same unsorted input; the
// copy is setup (glint::iter_batched builds it untimed), so only the sort is measured.
GLINT_BENCH("sort", glint::Metric{"elem", 1000}) {
    const std::vector<int> input = sort_input();
    glint::iter_batched([&] { return input; }, [](std::vector<int>& v) { return sort_ints(v); });
}

// issue 47's iter_batched case: a fresh copy of a 512-int vector per call (setup, untimed) and a
// cheap body, reversing it: the setup costs about as much as the timed call.
GLINT_BENCH("reverse512") {
    const std::vector<int> base = reverse_input();
    glint::iter_batched([&] { return base; }, [](std::vector<int>& v) { return reverse_ints(v); });
}

// memcpy at three sizes, with a bytes/s column. 64 bytes is a batched case (a 64-byte copy costs
// less than the per-call clock's own bracket, so per call it would render only as a bound);
// the larger copies are per-call rows that verify their result.
GLINT_BENCH("memcpy/64B", glint::Metric{"B", 64}) {
    alignas(64) static unsigned char src[64], dst[64];
    for (int i = 0; i < 64; ++i) src[i] = 0x5a;
    glint::iter([&] {
        copy64(+dst, +src);
        glint::black_box_ref(dst);
    });
}

namespace {
void register_memcpy(const char* size_name, std::size_t bytes) {
    auto src = std::make_shared<std::vector<unsigned char>>(bytes, 0x5a);
    auto dst = std::make_shared<std::vector<unsigned char>>(bytes);
    glint::bench_case(
        {.name = "memcpy",
         .labels = {{"size", size_name}},
         .metrics = {glint::Metric{"B", static_cast<double>(bytes), glint::Metric::rate}}},
        [=] {
            copy_bytes(dst->data(), src->data(), bytes);
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
GLINT_BENCH("select/branchless") {
    const auto data = random_words(kSelectN, 3);
    glint::iter([&] { return select_branchless(data); });
}
