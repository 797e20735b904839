// The --perf-read=compare columns: which exist, which are default, why unavailable, and the cells.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "engine/tiers/perf/compare_metrics.hpp"

using namespace glint;
using namespace glint::engine::perf;
using namespace glint::engine::counting;
using os::Event;

namespace {

FamilyState hardware_state() {
    FamilyState s;
    s.opened = true;
    s.kind = GroupKind::hardware;
    s.members = {Event::cycles, Event::instructions, Event::page_faults};
    return s;
}

FamilyState software_state() {
    FamilyState s;
    s.opened = true;
    s.kind = GroupKind::software;
    s.members = {Event::task_clock, Event::page_faults};
    s.hardware_absent = "no hardware PMU here";
    return s;
}

const catalog::MetricDescriptor* find(const std::vector<catalog::MetricDescriptor>& f,
                                      const std::string& name) {
    for (const auto& d : f)
        if (d.name == name) return &d;
    return nullptr;
}

const catalog::MetricCell* find(const std::vector<catalog::MetricCell>& cells,
                                const std::string& name) {
    for (const auto& c : cells)
        if (c.name == name) return &c;
    return nullptr;
}

PathPass pass_of(double cycles, double instructions, double cycles_cost, double instr_cost,
                 bool estimated = false) {
    PathPass p;
    p.ran = true;
    p.per_iteration.size = 3;
    p.per_iteration.values = {cycles, instructions, 0.0};
    p.per_iteration.estimated = estimated;
    p.cost.measured = true;
    p.cost.size = 3;
    p.cost.per_bracket = {cycles_cost, instr_cost, 0.0};
    return p;
}

}  // namespace

TEST_CASE("compare columns: listed always, measured only with --perf-read=compare") {
    const auto family = compare_family(hardware_state(), CompareState{});
    CHECK(family.size() == 12);
    for (const auto& d : family) {
        CHECK_FALSE(d.available);
        CHECK_FALSE(d.is_default);
        CHECK(d.reason == "counted only with --perf-read=compare");
        CHECK(d.source == "perf");
    }
    CHECK(compare_cells(hardware_state(), CompareState{}, PathPass{}, PathPass{}).empty());
}

TEST_CASE("compare columns: hardware group defaults, names and headers per path") {
    const auto family = compare_family(hardware_state(), CompareState{true, true, ""});
    std::vector<std::string> defaults;
    for (const auto& d : family)
        if (d.is_default) defaults.push_back(d.name + " | " + d.header);
    CHECK(defaults == std::vector<std::string>{"instr@rdpmc | instr/iter rdpmc",
                                               "instr@syscall | instr/iter syscall",
                                               "bracket-cycles@rdpmc | bracket cyc rdpmc",
                                               "bracket-cycles@syscall | bracket cyc syscall"});
    CHECK(find(family, "cycles@rdpmc")->available);
    CHECK_FALSE(find(family, "task-clock@syscall")->available);
}

TEST_CASE("compare columns: the user side carries the path's reason when it does not count") {
    const auto family =
        compare_family(hardware_state(), CompareState{true, false, "cap_user_rdpmc 0"});
    CHECK(find(family, "instr@rdpmc")->reason == "cap_user_rdpmc 0");
    CHECK(find(family, "instr@rdpmc")->is_default);  // still shown: renders —
    CHECK(find(family, "instr@syscall")->available);

    const auto cells = compare_cells(hardware_state(), CompareState{true, false, "x"}, PathPass{},
                                     pass_of(20, 10, 1000, 600));
    CHECK(std::isnan(find(cells, "instr@rdpmc")->value));
    CHECK(find(cells, "instr@syscall")->value == 10);
    CHECK(find(cells, "bracket-instr@syscall")->value == 600);
}

TEST_CASE("compare cells: per-iteration counts and bracket costs of each path, estimates marked") {
    const auto cells = compare_cells(hardware_state(), CompareState{true, true, ""},
                                     pass_of(20, 10, 33, 18), pass_of(21, 10, 1000, 600, true));
    CHECK(cells.size() == 8);
    CHECK(find(cells, "instr@rdpmc")->value == 10);
    CHECK(find(cells, "cycles@rdpmc")->value == 20);
    CHECK(find(cells, "bracket-cycles@rdpmc")->value == 33);
    CHECK(find(cells, "bracket-instr@rdpmc")->value == 18);
    CHECK_FALSE(find(cells, "instr@rdpmc")->estimated);
    CHECK(find(cells, "cycles@syscall")->value == 21);
    CHECK(find(cells, "bracket-cycles@syscall")->value == 1000);
    CHECK(find(cells, "instr@syscall")->estimated);
    CHECK(find(cells, "instr@syscall")->format == catalog::Format::count);
}

TEST_CASE("compare columns: the software group compares task-clock") {
    const FamilyState s = software_state();
    const auto family = compare_family(s, CompareState{true, false, "no hardware counter"});
    CHECK(find(family, "task-clock@syscall")->is_default);
    CHECK(find(family, "bracket-task-clock@syscall")->is_default);
    CHECK_FALSE(find(family, "instr@syscall")->is_default);
    CHECK(find(family, "instr@syscall")->reason == "no hardware PMU here");
    PathPass syscall;
    syscall.ran = true;
    syscall.per_iteration.size = 2;
    syscall.per_iteration.values = {11.5, 0.0};
    syscall.cost.measured = true;
    syscall.cost.size = 2;
    syscall.cost.per_bracket = {2200.0, 0.0};
    const auto cells =
        compare_cells(s, CompareState{true, false, "no hardware counter"}, PathPass{}, syscall);
    CHECK(cells.size() == 4);
    CHECK(find(cells, "task-clock@syscall")->value == 11.5);
    CHECK(find(cells, "bracket-task-clock@syscall")->value == 2200);
    CHECK(std::isnan(find(cells, "task-clock@rdpmc")->value));
}

TEST_CASE("compare columns: an unavailable tier gives its own reason, no column is default") {
    FamilyState s;
    s.opened = true;
    s.kind = GroupKind::none;
    s.unavailable = "perf_event_open refused";
    for (const auto& d : compare_family(s, CompareState{true, false, ""})) {
        CHECK(d.reason == "perf_event_open refused");
        CHECK_FALSE(d.is_default);
    }
    CHECK(compare_cells(s, CompareState{true, false, ""}, PathPass{}, PathPass{}).empty());
}
