// The portable half of os/time_lost.hpp: /proc/stat's steal column and a schedstat line.
#include <charconv>

#include "os/time_lost.hpp"

namespace glint::os {
namespace {

// The next white-space separated word of `text` from `pos` ("" at the end of the line).
std::string_view next_word(std::string_view line, std::size_t& pos) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
    const std::size_t start = pos;
    while (pos < line.size() && line[pos] != ' ' && line[pos] != '\t') ++pos;
    return line.substr(start, pos - start);
}

bool to_u64(std::string_view word, std::uint64_t& out) {
    if (word.empty()) return false;
    const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), out);
    return ec == std::errc() && end == word.data() + word.size();
}

// "cpu[N] user nice system idle iowait irq softirq steal ...": the steal word (the 8th number).
bool steal_of(std::string_view line, std::size_t pos, std::uint64_t& steal, std::string& why) {
    std::uint64_t value = 0;
    for (int field = 0; field < 8; ++field) {
        const std::string_view word = next_word(line, pos);
        if (word.empty()) {
            why = "/proc/stat has no steal column (a kernel before 2.6.11)";
            return false;
        }
        if (!to_u64(word, value)) {
            why = "/proc/stat has a malformed number: '" + std::string(word.substr(0, 32)) + "'";
            return false;
        }
    }
    steal = value;
    return true;
}

}  // namespace

std::optional<std::uint64_t> StealReading::of_cpu(unsigned cpu) const {
    for (const auto& [n, ticks] : per_cpu)
        if (n == cpu) return ticks;
    return std::nullopt;
}

StealReading parse_proc_stat_steal(std::string_view text) {
    StealReading r;
    bool aggregate = false;
    while (!text.empty()) {
        const std::size_t eol = text.find('\n');
        const std::string_view line = text.substr(0, eol);
        text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
        std::size_t pos = 0;
        const std::string_view name = next_word(line, pos);
        if (name.size() < 3 || name.substr(0, 3) != "cpu") continue;
        std::uint64_t steal = 0;
        if (name == "cpu") {
            if (aggregate) continue;  // only the first aggregate line counts
            if (!steal_of(line, pos, steal, r.why)) return StealReading{.why = r.why};
            aggregate = true;
            r.all = steal;
            continue;
        }
        std::uint64_t cpu = 0;
        if (!to_u64(name.substr(3), cpu) || cpu > 1'000'000) continue;  // not a cpuN line
        std::string why;
        if (!steal_of(line, pos, steal, why)) continue;  // a torn per-CPU line: that CPU unknown
        r.per_cpu.emplace_back(static_cast<unsigned>(cpu), steal);
    }
    if (!aggregate) return StealReading{.why = "/proc/stat has no aggregate \"cpu\" line"};
    r.ok = true;
    return r;
}

RunDelayReading parse_schedstat(std::string_view text) {
    std::size_t pos = 0;
    const std::string_view line = text.substr(0, text.find('\n'));
    std::uint64_t on_cpu = 0, delay = 0;
    const std::string_view first = next_word(line, pos), second = next_word(line, pos);
    if (!to_u64(first, on_cpu) || !to_u64(second, delay))
        return {false, "schedstat is not \"<on-cpu ns> <run delay ns> <timeslices>\": '" +
                           std::string(line.substr(0, 48)) + "'"};
    // The kernel prints "0 0 0" when it keeps no sched_info (no CONFIG_SCHED_INFO, delay
    // accounting off); a thread that has run has a nonzero on-CPU time.
    if (on_cpu == 0)
        return {false,
                "the kernel keeps no scheduler statistics for this thread (schedstat reads "
                "\"0 0 0\": CONFIG_SCHED_INFO off, or delayacct off)"};
    return {true, "", delay};
}

}  // namespace glint::os
