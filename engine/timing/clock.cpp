#include "engine/timing/clock.hpp"

#include <algorithm>
#include <array>

#include "engine/stats/summary.hpp"

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

}  // namespace

const ClockProperties& clock_properties() {
    static const ClockProperties props = [] {
        ClockProperties p;
        p.resolution_ns = measure_resolution();
        p.read_cost_ns = measure_read_cost();
        p.bracket_ns = measure_bracket();
        return p;
    }();
    return props;
}

}  // namespace glint::engine
