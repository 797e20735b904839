// bench/vs_google_benchmark.cpp: glint's timing of a one-cycle body against Google Benchmark's,
// measured in one run of one program. Built only when Google Benchmark is installed
// (Debian: libbenchmark-dev).
//
// Prints, for `x = black_box(x + x)`: glint's median ±MAD (default settings: 5 ms samples,
// 32 samples), the wall time of that one glint case, Google Benchmark's time per iteration,
// and the ratio. Targets (issue 2): within 5% of Google Benchmark, MAD <= 2% of the median,
// one case <= 0.5 s. This program reports; it asserts nothing.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>

#include <glint/bench.hpp>

#include "engine/timing/clock.hpp"
#include "engine/timing/protocol.hpp"

namespace {

double g_google_ns = std::nan("");

void BM_add_chain(benchmark::State& state) {
    std::uint64_t x = 1;
    for (auto _ : state) x = glint::black_box(x + x);
    benchmark::DoNotOptimize(x);
}
BENCHMARK(BM_add_chain);

class Capture : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const auto& r : runs)
            if (!r.error_occurred) g_google_ns = r.GetAdjustedRealTime();  // ns per iteration
        ConsoleReporter::ReportRuns(runs);
    }
};

}  // namespace

int main(int argc, char** argv) {
    using namespace glint::engine;
    // glint, at default settings, timed as a whole.
    std::uint64_t x = 1;
    auto body = [&] { x = glint::black_box(x + x); };
    glint::detail::Batch batch{&glint::detail::run_batch<decltype(body)>, &body};
    const std::int64_t start = now_ns();
    TimingSummary t = time_batched(batch, TimingConfig{});
    const double case_seconds = static_cast<double>(now_ns() - start) * 1e-9;

    benchmark::Initialize(&argc, argv);
    Capture capture;
    benchmark::RunSpecifiedBenchmarks(&capture);
    benchmark::Shutdown();

    const double ratio = t.median_ns / g_google_ns;
    const double mad_pct = 100.0 * t.mad_ns / t.median_ns;
    std::printf("\nadd_chain (x = black_box(x + x)), one run:\n");
    std::printf("  glint            median %.4f ns ±%.4f ns (MAD %.2f%% of median), %llu×%llu, case took %.3f s\n",
                t.median_ns, t.mad_ns, mad_pct, static_cast<unsigned long long>(t.samples),
                static_cast<unsigned long long>(t.iterations_per_sample), case_seconds);
    std::printf("  Google Benchmark %.4f ns per iteration\n", g_google_ns);
    std::printf("  ratio glint/GB   %.4f (%+.2f%%)\n", ratio, 100.0 * (ratio - 1));
    std::printf("  targets: |ratio-1| <= 5%%: %s · MAD <= 2%%: %s · case <= 0.5 s: %s\n",
                std::fabs(ratio - 1) <= 0.05 ? "met" : "NOT met", mad_pct <= 2.0 ? "met" : "NOT met",
                case_seconds <= 0.5 ? "met" : "NOT met");
    return 0;
}
