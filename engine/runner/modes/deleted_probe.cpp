#include "engine/runner/modes/deleted_probe.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdint>

#include "engine/timing/protocol.hpp"
#include "engine/timing/windows.hpp"

namespace glint::engine {
namespace {

bool g_probe_deleted = true;

constexpr double kDeletedProbeEnoughNs = 20e3;
constexpr std::uint64_t kDeletedProbeMaxIterations = std::uint64_t{1} << 26;

double timed_run_ns(const glint::detail::Batch& batch, std::uint64_t n) {
    const auto start = std::chrono::steady_clock::now();
    batch.run(batch.ctx, n);
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
        .count();
}

}  // namespace

void set_plain_deleted_probe(bool on) { g_probe_deleted = on; }

void run_probing_deleted(const glint::detail::Batch& batch) {
    const bool probed = g_probe_deleted && !has_inputs(batch) && !batch.reference &&
                        !batch.self_timing && batch.max_window == 0;
    if (!probed) return run_untimed(batch, 1);
    if (timed_run_ns(batch, 1) >= kDeletedProbeEnoughNs) return;
    std::uint64_t n = 2;
    double ns = 0;
    for (; n <= kDeletedProbeMaxIterations; n *= 2)
        if ((ns = timed_run_ns(batch, n)) >= kDeletedProbeEnoughNs) return;
    n /= 2;
    if (ns / static_cast<double>(n) < kOptimizedAwayNs)
        throw OptimizedAway(fmt::format(
            "optimized away: the compiler deleted the body (pass its inputs and result through "
            "glint::black_box): {} iterations took {:.3g} ns in all, below 1 ps each, faster "
            "than any instruction (--bench refuses it too)",
            n, ns));
}

}  // namespace glint::engine
