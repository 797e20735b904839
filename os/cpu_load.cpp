// The portable half of os/cpu_affinity.hpp: /proc/stat's text and the least-busy choice.
#include <cmath>
#include <sstream>
#include <string>

#include "os/cpu_affinity.hpp"

namespace glint::os {
namespace {

const CpuTimes* find(const std::vector<CpuTimes>& times, unsigned cpu) {
    for (const auto& t : times)
        if (t.cpu == cpu) return &t;
    return nullptr;
}

}  // namespace

std::vector<CpuTimes> parse_proc_stat(std::string_view text) {
    std::vector<CpuTimes> out;
    std::istringstream in{std::string(text)};
    std::string line;
    while (std::getline(in, line)) {
        // "cpu3 user nice system idle iowait irq softirq steal guest guest_nice"
        if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || line[3] < '0' || line[3] > '9')
            continue;
        std::istringstream fields(line.substr(3));
        CpuTimes t;
        std::uint64_t v[8] = {};
        if (!(fields >> t.cpu)) continue;
        std::size_t n = 0;
        while (n < 8 && fields >> v[n]) ++n;
        if (n < 4) continue;                     // user nice system idle at least
        const std::uint64_t idle = v[3] + v[4];  // idle + iowait
        t.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
        t.total = t.busy + idle;
        out.push_back(t);
    }
    return out;
}

double busy_share(const std::vector<CpuTimes>& before, const std::vector<CpuTimes>& after,
                  unsigned cpu) {
    const CpuTimes* a = find(before, cpu);
    const CpuTimes* b = find(after, cpu);
    if (!a || !b || b->total <= a->total || b->busy < a->busy) return NAN;
    return static_cast<double>(b->busy - a->busy) / static_cast<double>(b->total - a->total);
}

std::optional<unsigned> least_busy_cpu(const std::vector<CpuTimes>& before,
                                       const std::vector<CpuTimes>& after,
                                       const std::vector<unsigned>& allowed) {
    std::optional<unsigned> best;
    double best_share = 0;
    for (unsigned cpu : allowed) {
        const double share = busy_share(before, after, cpu);
        if (std::isnan(share)) continue;
        if (!best || share < best_share || (share == best_share && cpu < *best)) {
            best = cpu;
            best_share = share;
        }
    }
    return best;
}

}  // namespace glint::os
