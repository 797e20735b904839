#include "engine/timing/clock.hpp"

#include <glint/detail/timestamp_clock.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include "arch/arch.hpp"
#include "engine/stats/summary.hpp"
#include "os/host.hpp"
#include "os/thread_usage.hpp"

namespace glint::engine {
namespace {

double measure_resolution() {
    std::int64_t best = INT64_MAX;
    for (int i = 0; i < 200; ++i) {
        const std::int64_t a = now_ns();
        std::int64_t b = now_ns();
        while (b == a) b = now_ns();
        best = std::min(best, b - a);
    }
    return static_cast<double>(best);
}

double measure_read_cost() {
    constexpr int kReads = 1000;
    std::array<double, 31> batches{};
    for (auto& batch : batches) {
        const std::int64_t start = now_ns();
        for (int i = 0; i < kReads; ++i) {
            volatile std::int64_t sink = now_ns();
            (void)sink;
        }
        batch = static_cast<double>(now_ns() - start) / kReads;
    }
    return median(batches);
}

double measure_bracket() {
    std::array<double, 1001> pairs{};
    for (auto& p : pairs) {
        const std::int64_t a = now_ns();
        const std::int64_t b = now_ns();
        p = static_cast<double>(b - a);
    }
    return median(pairs);
}

// Ticks per nanosecond, over ~20 ms of steady_clock.
double measure_ns_per_tick() {
    const std::int64_t t0 = now_ns();
    const std::uint64_t c0 = arch::native::timestamp_begin();
    std::int64_t t1 = now_ns();
    while (t1 - t0 < 20'000'000) t1 = now_ns();
    const std::uint64_t c1 = arch::native::timestamp_end();
    return static_cast<double>(t1 - t0) / static_cast<double>(c1 - c0);
}

double measure_tick_bracket(double ns_per_tick) {
    std::array<double, 1001> pairs{};
    for (auto& p : pairs) {
        const std::uint64_t a = arch::native::timestamp_begin();
        const std::uint64_t b = arch::native::timestamp_end();
        p = static_cast<double>(b - a) * ns_per_tick;
    }
    return median(pairs);
}

// The steady_clock pair around each read (`bracket_ns`) is subtracted.
double measure_thread_cpu_read(double bracket_ns) {
    if (os::thread_cpu_ns() < 0) return NAN;
    std::array<double, 101> reads{};
    for (auto& r : reads) {
        const std::int64_t a = now_ns();
        volatile std::int64_t sink = os::thread_cpu_ns();
        (void)sink;
        r = static_cast<double>(now_ns() - a);
    }
    return std::max(0.0, median(reads) - bracket_ns);
}

double measure_thread_cpu_step() {
    if (os::thread_cpu_ns() < 0) return NAN;
    std::int64_t best = INT64_MAX;
    for (int i = 0; i < 101; ++i) {
        const std::int64_t a = os::thread_cpu_ns();
        std::int64_t b = os::thread_cpu_ns();
        for (int spin = 0; b == a && spin < 100000; ++spin) b = os::thread_cpu_ns();
        if (b > a) best = std::min(best, b - a);
    }
    return best == INT64_MAX ? NAN : static_cast<double>(best);
}

}  // namespace

const ClockProperties& clock_properties() {
    static const ClockProperties props = [] {
        ClockProperties p;
        p.resolution_ns = measure_resolution();
        p.read_cost_ns = measure_read_cost();
        p.bracket_ns = measure_bracket();
        p.thread_cpu_read_ns = measure_thread_cpu_read(p.bracket_ns);
        p.thread_cpu_step_ns = measure_thread_cpu_step();
        p.ticks_name = arch::native::kTimestampName;
        if constexpr (arch::native::kHasTimestamp) {
            p.ticks_usable = os::timestamp_counter_is_stable(p.ticks_why);
        } else {
            p.ticks_why = "this ISA back end has no timestamp counter";
        }
        if (p.ticks_usable) {
            p.ns_per_tick = measure_ns_per_tick();
            p.tick_bracket_ns = measure_tick_bracket(p.ns_per_tick);
        }
        return p;
    }();
    return props;
}

double run_cpu_ns(std::int64_t cpu_start, std::int64_t cpu_stop, double wall_ns,
                  double cpu_step_ns) {
    constexpr double kStepsPerRun = 20;  // a step's error stays under the 0.9 CPU/wall verdict
    if (cpu_start < 0 || cpu_stop < 0) return NAN;
    if (std::isfinite(cpu_step_ns) && cpu_step_ns * kStepsPerRun > wall_ns) return NAN;
    return static_cast<double>(cpu_stop - cpu_start);
}

double cpu_tolerance_per_read() {
    const ClockProperties& clock = clock_properties();
    const double step = std::isfinite(clock.thread_cpu_step_ns) ? clock.thread_cpu_step_ns : 0;
    const double read = std::isfinite(clock.thread_cpu_read_ns) ? clock.thread_cpu_read_ns : 0;
    return step + read;
}

}  // namespace glint::engine

namespace glint::detail {

TimestampClock timestamp_clock() {
    const engine::ClockProperties& clock = engine::clock_properties();
    return {clock.ticks_usable, clock.ticks_usable ? clock.ns_per_tick : 0, clock.ticks_why};
}

}  // namespace glint::detail
