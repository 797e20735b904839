#include "engine/timing/core_probe.hpp"

#include <algorithm>
#include <cmath>

#include "engine/stats/summary.hpp"
#include "engine/timing/clock.hpp"

namespace glint::engine {

double probe_step_ns(std::uint64_t steps) {
    std::uint64_t x = 1;
    const std::int64_t start = now_ns();
    // The empty asm keeps each add in the chain: the compiler can neither fold nor vectorize it.
    for (std::uint64_t i = 0; i < steps; ++i) {
        x += x;
        asm volatile("" : "+r"(x));
    }
    const std::int64_t stop = now_ns();
    asm volatile("" : : "r"(x));
    return static_cast<double>(stop - start) /
           static_cast<double>(std::max<std::uint64_t>(steps, 1));
}

ProbeReading read_probe(double probe_ns, double fastest_ns) {
    if (probe_ns > kInterruptedProbeFactor * fastest_ns) return ProbeReading::interrupted;
    if (probe_ns > kSlowCoreFactor * fastest_ns) return ProbeReading::slowed;
    return ProbeReading::full_speed;
}

std::vector<bool> slow_core_samples(std::span<const double> probes, std::size_t n) {
    std::vector<bool> slow(n, false);
    if (probes.size() != n + 1 || n == 0) return slow;
    const double fastest = *std::min_element(probes.begin(), probes.end());
    if (!(fastest > 0)) return slow;
    auto slowed = [&](double p) { return read_probe(p, fastest) == ProbeReading::slowed; };
    for (std::size_t i = 0; i < n; ++i) slow[i] = slowed(probes[i]) || slowed(probes[i + 1]);
    return slow;
}

double pass_core_step(std::span<const double> probes) {
    if (probes.empty()) return NAN;
    const double fastest = *std::min_element(probes.begin(), probes.end());
    std::vector<double> kept;
    for (double p : probes)
        if (read_probe(p, fastest) != ProbeReading::interrupted) kept.push_back(p);
    return median(kept);
}

}  // namespace glint::engine
