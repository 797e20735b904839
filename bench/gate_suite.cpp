// bench/gate_suite.cpp: glint's side of the gate benchmark (bench/gate.sh): 14 rows of every kind
// — ns-scale iter, µs-scale iter, iter_batched, per-call, threaded, instruction-level — over
// bench/gate_kernels.hpp. Built as glint_gate_a and glint_gate_b (GLINT_GATE_B: three rows do
// more work).
#include <glint/bench.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "gate_kernels.hpp"
#include "kernel_cases.hpp"  // add_chain, popcount/256, hash/64B, as the shipped suite
#if defined(__x86_64__)
#include <glint/asm.hpp>
#endif

using namespace glint_gate;

GLINT_BENCH("hash/fnv1a", glint::values("len", {16, 256, 4096})) {
    const std::size_t len = static_cast<std::size_t>(glint::param());
    const std::vector<unsigned char> bytes(fnv1a_bytes(len), 0xa5);
    glint::iter([&] { return fnv1a(glint::black_box(bytes.data()), bytes.size()); });
}

GLINT_BENCH("sort") {
    const std::vector<int> input = sort_input();
    glint::iter_batched([&] { return input; }, [](std::vector<int>& v) { return sort_ints(v); });
}

namespace {
void register_copy(const char* size_name, std::size_t bytes) {
    auto src = std::make_shared<std::vector<unsigned char>>(bytes, 0x5a);
    auto dst = std::make_shared<std::vector<unsigned char>>(bytes);
    glint::bench_case({.name = "memcpy", .labels = {{"size", size_name}}}, [=] {
        copy_bytes(dst->data(), src->data(), bytes);
        return (*dst)[bytes - 1];
    });
}
}  // namespace

GLINT_BENCH("memcpy") {
    register_copy("4KiB", copy4k_bytes());
    register_copy("64KiB", kBigCopy);
}

GLINT_BENCH("select/branchless") {
    const auto data = random_words(kSelectN, 3);
    glint::iter([&] { return select_branchless_gate(data); });
}

namespace {
struct alignas(64) Line {
    std::uint64_t value = 1;
};
Line g_lcg[2];
}  // namespace

GLINT_BENCH("lcg", glint::threads({2})) {
    glint::iter([] {
        Line& l = g_lcg[glint::thread_index()];
        l.value = lcg_step(l.value);
    });
}

#if defined(__x86_64__)
GLINT_BENCH("asm/latency/add") {
    glint::asm_iter({.body = [](Xbyak::CodeGenerator& g, const Xbyak::Reg64& r) { g.add(r, r); }});
}
GLINT_BENCH("asm/throughput/imul") {
    glint::asm_iter({.body = [](Xbyak::CodeGenerator& g, const Xbyak::Reg64& r) { g.imul(r, r); },
                     .chains = glint::kIndependentChains});
}
#endif
