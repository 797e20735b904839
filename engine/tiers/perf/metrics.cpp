#include "engine/tiers/perf/metrics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include <fmt/format.h>

namespace glint::engine::perf {

using namespace counting;  // the layer this tier stands on
namespace {

using catalog::Format;
using os::Event;

enum class Kinds { hardware, software, both };

struct PerfMetric {
    const char* name;
    const char* header;
    Format format;
    Kinds kinds;
    Event numerator;
    std::optional<Event> denominator;  // ratio/percent metrics
    double multiplier = 1.0;           // 100 for percentages
};

const std::array<PerfMetric, 9>& perf_metrics() {
    static const std::array<PerfMetric, 9> table{{
        {"ipc", "ipc", Format::ratio, Kinds::hardware, Event::instructions, Event::cycles},
        {"instr", "instr/iter", Format::count, Kinds::hardware, Event::instructions, {}},
        {"cycles", "cycles/iter", Format::count, Kinds::hardware, Event::cycles, {}},
        {"branch-miss", "branch-miss", Format::percent, Kinds::hardware, Event::branch_misses,
         Event::branches, 100.0},
        {"cache-miss", "cache-miss", Format::percent, Kinds::hardware, Event::cache_misses,
         Event::cache_references, 100.0},
        {"page-faults", "faults/iter", Format::count, Kinds::both, Event::page_faults, {}},
        {"task-clock",
         "task-clock/iter",
         Format::nanoseconds,
         Kinds::software,
         Event::task_clock,
         {}},
        {"context-switches",
         "ctx-sw/iter",
         Format::count,
         Kinds::software,
         Event::context_switches,
         {}},
        {"cpu-migrations",
         "migrations/iter",
         Format::count,
         Kinds::software,
         Event::cpu_migrations,
         {}},
    }};
    return table;
}

bool belongs(const PerfMetric& m, GroupKind kind) {
    if (m.kinds == Kinds::both) return kind != GroupKind::none;
    return (m.kinds == Kinds::hardware) == (kind == GroupKind::hardware) && kind != GroupKind::none;
}

bool has(const std::vector<Event>& events, Event e) {
    return std::ranges::find(events, e) != events.end();
}

// Why `m` cannot be produced with this state's group; empty when it can.
std::string missing_reason(const PerfMetric& m, const FamilyState& s) {
    if (!s.opened) return "the perf tier was not opened (--perf, or a perf metric in --metrics)";
    if (s.kind == GroupKind::none) return s.unavailable;
    if (!belongs(m, s.kind)) {
        if (s.kind == GroupKind::software) return s.hardware_absent;
        return "counted by the software group, which opens only when no hardware PMU exists";
    }
    for (std::optional<Event> e : {std::optional<Event>(m.numerator), m.denominator}) {
        if (!e || has(s.members, *e)) continue;
        if (s.llc_dropped && (*e == Event::cache_references || *e == Event::cache_misses))
            return s.llc_reason;
        if (has(s.unsupported, *e))
            return fmt::format("{} is not supported by this PMU", os::event_name(*e));
        return fmt::format("{} is not in the group", os::event_name(*e));
    }
    return {};
}

catalog::MetricDescriptor describe(const PerfMetric& m, const FamilyState& s) {
    catalog::MetricDescriptor d;
    d.name = m.name;
    d.header = m.header;
    d.format = m.format;
    d.cls = catalog::MetricClass::diagnostic;
    d.source = "perf";
    d.reason = missing_reason(m, s);
    d.available = d.reason.empty();
    if (!s.opened) d.is_default = m.kinds != Kinds::software;
    else d.is_default = belongs(m, s.kind);
    return d;
}

double value_of(const FamilyState& s, const PerIteration& pass, Event e) {
    for (std::size_t i = 0; i < s.members.size() && i < pass.size; ++i)
        if (s.members[i] == e) return pass.values[i];
    return catalog::kNotMeasured;
}

}  // namespace

FamilyState family_state(const OpenedGroup& opened) {
    FamilyState s;
    s.opened = true;
    s.kind = opened.kind;
    if (!opened.usable() && !opened.statuses.empty())
        s.unavailable = opened.statuses.front().reason;
    if (opened.usable()) s.members = opened.group.spec().events;
    s.unsupported = opened.unsupported;
    s.llc_dropped = opened.llc_dropped;
    for (const auto& st : opened.statuses)
        if (st.capability == "perf.llc-pair") s.llc_reason = st.reason;
    s.hardware_absent = opened.hardware_absent;
    return s;
}

std::vector<catalog::MetricDescriptor> perf_family(const FamilyState& state) {
    std::vector<catalog::MetricDescriptor> family;
    for (const auto& m : perf_metrics()) family.push_back(describe(m, state));
    return family;
}

std::vector<catalog::MetricCell> perf_cells(const FamilyState& state, const PerIteration& pass) {
    std::vector<catalog::MetricCell> cells;
    for (const auto& m : perf_metrics()) {
        if (!belongs(m, state.kind)) continue;
        double value = value_of(state, pass, m.numerator);
        if (m.denominator) value = ratio_of(value, value_of(state, pass, *m.denominator));
        value *= m.multiplier;
        const catalog::MetricDescriptor d = describe(m, state);
        cells.push_back(catalog::make_cell(d, value, pass.estimated && !std::isnan(value)));
    }
    return cells;
}

}  // namespace glint::engine::perf
