#include "engine/timing/difference.hpp"

#include <algorithm>

#include "engine/timing/clock.hpp"
#include "engine/timing/core_probe.hpp"
#include "engine/timing/protocol.hpp"

namespace glint::engine {
namespace {

template <class Read>
DifferenceSample difference_windows(const glint::detail::Batch& batch, std::uint64_t n,
                                    std::uint64_t unit_n, Read read) {
    DifferenceSample s;
    const std::int64_t start = read();
    batch.reference(batch.ctx, n);
    const std::int64_t middle = read();
    batch.run(batch.ctx, n);
    const std::int64_t stop = read();
    s.wall = static_cast<double>((stop - middle) - (middle - start));
    s.whole = static_cast<double>(stop - start);
    if (unit_n == 0 || !batch.unit_run || !batch.unit_reference) return s;
    const std::int64_t unit_start = read();
    batch.unit_reference(batch.ctx, unit_n);
    const std::int64_t unit_middle = read();
    batch.unit_run(batch.ctx, unit_n);
    const std::int64_t unit_stop = read();
    const double unit_wall =
        static_cast<double>((unit_stop - unit_middle) - (unit_middle - unit_start));
    s.unit_ns = unit_wall / (static_cast<double>(unit_n) * static_cast<double>(batch.unit_span));
    s.probe_ns = static_cast<double>(unit_stop - unit_middle);
    s.whole = static_cast<double>(unit_stop - start);
    return s;
}

}  // namespace

DifferenceSample time_difference(const glint::detail::Batch& batch, std::uint64_t n,
                                 std::uint64_t unit_n, const PairClock& clock) {
    if (clock) return difference_windows(batch, n, unit_n, [&clock] { return clock(); });
    return difference_windows(batch, n, unit_n, [] { return now_ns(); });
}

std::uint64_t unit_calls(const glint::detail::Batch& batch, double min_time_ns,
                         const PairClock& clock) {
    if (!batch.reference || !batch.unit_run || !batch.unit_reference) return 0;
    glint::detail::Batch unit = batch;
    unit.run = batch.unit_run;
    unit.reference = batch.unit_reference;
    unit.unit_run = unit.unit_reference = nullptr;
    return double_until([&](std::uint64_t k) { return time_difference(unit, k, 0, clock).whole; },
                        min_time_ns);
}

std::vector<bool> slow_unit_samples(const std::vector<double>& probe_ns) {
    std::vector<bool> slow(probe_ns.size(), false);
    double fastest = INFINITY;
    for (double p : probe_ns)
        if (p > 0) fastest = std::min(fastest, p);
    if (!std::isfinite(fastest)) return slow;
    for (std::size_t i = 0; i < probe_ns.size(); ++i)
        slow[i] = read_probe(probe_ns[i], fastest) == ProbeReading::slowed;
    return slow;
}

}  // namespace glint::engine
