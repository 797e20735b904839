#include "engine/tiers/perf/compare_metrics.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "engine/counting/read_path.hpp"

namespace glint::engine::perf {

using namespace counting;  // the layer this tier stands on
namespace {

using os::Event;

// What a compare column shows of its member.
enum class Shows { per_iteration, per_bracket };

struct CompareMetric {
    const char* stem;    // name before "@P"
    const char* header;  // header before " P"
    GroupKind kind;
    Event event;
    Shows shows;
    bool is_default;
};

const std::array<CompareMetric, 6>& compare_metrics() {
    static const std::array<CompareMetric, 6> table{{
        {"instr", "instr/iter", GroupKind::hardware, Event::instructions, Shows::per_iteration,
         true},
        {"cycles", "cycles/iter", GroupKind::hardware, Event::cycles, Shows::per_iteration, false},
        {"bracket-cycles", "bracket cyc", GroupKind::hardware, Event::cycles, Shows::per_bracket,
         true},
        {"bracket-instr", "bracket instr", GroupKind::hardware, Event::instructions,
         Shows::per_bracket, false},
        {"task-clock", "task-clock/iter", GroupKind::software, Event::task_clock,
         Shows::per_iteration, true},
        {"bracket-task-clock", "bracket tc", GroupKind::software, Event::task_clock,
         Shows::per_bracket, true},
    }};
    return table;
}

constexpr std::array<std::string_view, 2> kPaths{kUserPathName, "syscall"};

bool is_user(std::string_view path) { return path == kUserPathName; }

std::string missing_reason(const CompareMetric& m, std::string_view path, const FamilyState& s,
                           const CompareState& c) {
    if (!c.requested) return "counted only with --perf-read=compare";
    if (!s.opened) return "the perf tier was not opened";
    if (s.kind == GroupKind::none) return s.unavailable;
    if (s.kind != m.kind)
        return m.kind == GroupKind::hardware
                   ? s.hardware_absent
                   : "a compare column of the software group, which opens only when no hardware "
                     "PMU exists";
    if (std::ranges::find(s.members, m.event) == s.members.end())
        return fmt::format("{} is not in the group", os::event_name(m.event));
    if (is_user(path) && !c.user_counts) return c.user_reason;
    return {};
}

catalog::MetricDescriptor describe(const CompareMetric& m, std::string_view path,
                                   const FamilyState& s, const CompareState& c) {
    catalog::MetricDescriptor d;
    d.name = fmt::format("{}@{}", m.stem, path);
    d.header = fmt::format("{} {}", m.header, path);
    d.format = m.event == Event::task_clock ? catalog::Format::nanoseconds : catalog::Format::count;
    d.cls = catalog::MetricClass::diagnostic;
    d.source = "perf";
    d.reason = missing_reason(m, path, s, c);
    d.available = d.reason.empty();
    d.is_default = c.requested && m.is_default && s.kind == m.kind;
    return d;
}

double value_of(const CompareMetric& m, const FamilyState& s, const PathPass& pass) {
    if (!pass.ran) return catalog::kNotMeasured;
    for (std::size_t i = 0; i < s.members.size(); ++i) {
        if (s.members[i] != m.event) continue;
        if (m.shows == Shows::per_iteration)
            return i < pass.per_iteration.size ? pass.per_iteration.values[i]
                                               : catalog::kNotMeasured;
        return pass.cost.measured && i < pass.cost.size ? pass.cost.per_bracket[i]
                                                        : catalog::kNotMeasured;
    }
    return catalog::kNotMeasured;
}

// A pass's bracket cost is scaled like its counts: an estimate when the pass was multiplexed.
bool estimated(const PathPass& pass) { return pass.ran && pass.per_iteration.estimated; }

}  // namespace

std::vector<catalog::MetricDescriptor> compare_family(const FamilyState& state,
                                                      const CompareState& compare) {
    std::vector<catalog::MetricDescriptor> family;
    for (const auto& m : compare_metrics())
        for (std::string_view path : kPaths) family.push_back(describe(m, path, state, compare));
    return family;
}

std::vector<catalog::MetricCell> compare_cells(const FamilyState& state,
                                               const CompareState& compare, const PathPass& user,
                                               const PathPass& syscall) {
    std::vector<catalog::MetricCell> cells;
    if (!compare.requested) return cells;
    for (const auto& m : compare_metrics()) {
        if (m.kind != state.kind) continue;
        for (std::string_view path : kPaths) {
            const catalog::MetricDescriptor d = describe(m, path, state, compare);
            const PathPass& pass = is_user(path) ? user : syscall;
            const double value = d.available ? value_of(m, state, pass) : catalog::kNotMeasured;
            cells.push_back(catalog::make_cell(d, value, estimated(pass) && !std::isnan(value)));
        }
    }
    return cells;
}

}  // namespace glint::engine::perf
