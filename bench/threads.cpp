// bench/threads.cpp: the measured table of docs/threads.md (glint_threads). One operation on
// 1 and 2 threads at once: independent work, one shared atomic counter, per-thread counters
// on one cache line (false sharing) and a cache line apart.
//   build/bench/glint_threads --bench --perf
#include <glint/bench.hpp>

#include <atomic>
#include <cstdint>

namespace {

struct alignas(64) Line {
    std::uint64_t value = 1;
};
Line g_lcg[2];

std::atomic<std::uint64_t> g_shared{0};

struct alignas(64) Adjacent {  // both threads' counters in one cache line
    std::atomic<std::uint64_t> count[2];
};
Adjacent g_adjacent;

struct alignas(64) Padded {  // each thread's counter on its own line
    std::atomic<std::uint64_t> count;
};
Padded g_padded[2];

}  // namespace

GLINT_BENCH("lcg", glint::threads({1, 2}), glint::Metric{"op", 1}) {
    glint::iter([] {
        Line& l = g_lcg[glint::thread_index()];
        l.value = glint::black_box(l.value * 6364136223846793005u + 1442695040888963407u);
    });
}

GLINT_BENCH("counter/shared", glint::threads({1, 2}), glint::Metric{"op", 1}) {
    glint::iter([] { return g_shared.fetch_add(1, std::memory_order_relaxed); });
}

GLINT_BENCH("counter/false-sharing", glint::threads({1, 2}), glint::Metric{"op", 1}) {
    glint::iter([] {
        return g_adjacent.count[glint::thread_index()].fetch_add(1, std::memory_order_relaxed);
    });
}

GLINT_BENCH("counter/padded", glint::threads({1, 2}), glint::Metric{"op", 1}) {
    glint::iter([] {
        return g_padded[glint::thread_index()].count.fetch_add(1, std::memory_order_relaxed);
    });
}
