#include "engine/timing/timed_windows.hpp"

#include <algorithm>
#include <cmath>

#include "engine/timing/clock.hpp"
#include "engine/timing/windows.hpp"
#include "os/thread_usage.hpp"

namespace glint::engine {

WindowsTime time_windows(const glint::detail::Batch& batch, std::uint64_t n, std::uint64_t window,
                         bool read_cpu) {
    const double bracket_ns = clock_properties().bracket_ns;  // subtracted per window
    WindowsTime t{0, read_cpu ? 0.0 : NAN};
    double lost = 0;
    std::int64_t cpu_start = 0, span_start = 0;
    for_each_window(
        batch, n, window,
        [&] {
            if (!read_cpu) return;
            cpu_start = os::thread_cpu_ns();
            span_start = now_ns();
        },
        [&](std::uint64_t k) {
            const std::int64_t start = now_ns();
            batch.run(batch.ctx, k);
            const std::int64_t stop = now_ns();
            t.wall += std::max(0.0, static_cast<double>(stop - start) - bracket_ns);
            if (!read_cpu) return;
            const std::int64_t cpu_stop = os::thread_cpu_ns();
            if (cpu_start < 0 || cpu_stop < 0) t.cpu = NAN;
            const double untimed = static_cast<double>(start - span_start);
            const double span_lost =
                static_cast<double>(stop - span_start) - static_cast<double>(cpu_stop - cpu_start);
            lost += std::max(0.0, span_lost - kUntimedLostShare * untimed);
        });
    if (read_cpu && !std::isnan(t.cpu)) t.cpu = std::max(0.0, t.wall - lost);
    return t;
}

}  // namespace glint::engine
