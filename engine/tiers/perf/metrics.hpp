// engine/tiers/perf/metrics.hpp: the perf tier's catalog entries and their per-row cells.
//
// Hardware group: ipc, instr, cycles, branch-miss, cache-miss, page-faults.
// Software group (no hardware PMU): task-clock, page-faults, context-switches, cpu-migrations.
// Per-iteration counts are "count" cells; branch-miss and cache-miss are percentages (2.31
// means 2.31 %); ipc is a ratio. All of them are diagnostic (seed: hardware counters explain,
// they do not headline). Pure: no OS access.
#pragma once

#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/counting/group_opener.hpp"
#include "engine/counting/pass_math.hpp"

namespace glint::engine::perf {

// The counting layer's vocabulary the hardware tier speaks.
using counting::BracketCost;
using counting::GroupKind;
using counting::OpenedGroup;
using counting::PerIteration;

// What the family depends on: the group that opened (or why none did).
struct FamilyState {
    bool opened = false;  // open() ran
    GroupKind kind = GroupKind::none;
    std::string unavailable;             // why no group opened (kind == none after open)
    std::vector<os::Event> members;      // the group's events, leader first
    std::vector<os::Event> unsupported;  // hardware members the PMU refused
    bool llc_dropped = false;
    std::string llc_reason;
    std::string hardware_absent;  // software-only: why there are no hardware events
};

FamilyState family_state(const OpenedGroup& opened);

// Every perf metric, available or not with the reason; is_default marks the columns plain
// --perf shows on this run (before open: the hardware ones; unavailable tier: none).
std::vector<catalog::MetricDescriptor> perf_family(const FamilyState& state);

// The cells of one pass: every metric of the open group's kind (a dropped member's metrics
// are nan), estimated when the pass was scaled.
std::vector<catalog::MetricCell> perf_cells(const FamilyState& state, const PerIteration& pass);

}  // namespace glint::engine::perf
