// The perf tier's catalog family and cell projection, and the messages it discloses.
#include <doctest/doctest.h>

#include <cerrno>
#include <cmath>

#include "engine/counting/messages.hpp"
#include "engine/tiers/perf/metrics.hpp"

using namespace glint;
using namespace glint::engine::perf;
using namespace glint::engine::counting;
using glint::os::Event;

namespace {

const catalog::MetricDescriptor& find(const std::vector<catalog::MetricDescriptor>& family,
                                      std::string_view name) {
    for (const auto& d : family)
        if (d.name == name) return d;
    FAIL("no descriptor " << name);
    return family.front();
}

const catalog::MetricCell* cell(const std::vector<catalog::MetricCell>& cells,
                                std::string_view name) {
    for (const auto& c : cells)
        if (c.name == name) return &c;
    return nullptr;
}

FamilyState hardware_state() {
    FamilyState s;
    s.opened = true;
    s.kind = GroupKind::hardware;
    s.members = hardware_events();
    return s;
}

PerIteration values(std::initializer_list<double> v, bool estimated = false) {
    PerIteration p;
    for (double x : v) p.values[p.size++] = x;
    p.estimated = estimated;
    return p;
}

}  // namespace

TEST_CASE("perf family lists all nine metrics from the perf source") {
    auto family = perf_family(hardware_state());
    CHECK(family.size() == 9);
    for (const char* name : {"ipc", "instr", "cycles", "branch-miss", "cache-miss", "page-faults",
                             "task-clock", "context-switches", "cpu-migrations"}) {
        const auto& d = find(family, name);
        CHECK(d.source == "perf");
        CHECK(d.cls == catalog::MetricClass::diagnostic);
    }
    CHECK(find(family, "ipc").format == catalog::Format::ratio);
    CHECK(find(family, "branch-miss").format == catalog::Format::percent);
    CHECK(find(family, "instr").header == "instr/iter");
}

TEST_CASE("hardware group: hardware columns default and available, software ones explained") {
    auto family = perf_family(hardware_state());
    for (const char* name :
         {"ipc", "instr", "cycles", "branch-miss", "cache-miss", "page-faults"}) {
        CHECK(find(family, name).available);
        CHECK(find(family, name).is_default);
    }
    const auto& tc = find(family, "task-clock");
    CHECK_FALSE(tc.available);
    CHECK_FALSE(tc.is_default);
    CHECK(tc.reason.find("software group") != std::string::npos);
}

TEST_CASE("software group: software columns default, hardware ones say why they are absent") {
    FamilyState s;
    s.opened = true;
    s.kind = GroupKind::software;
    s.members = software_events();
    s.hardware_absent = "no hardware PMU: /x lists software and no CPU PMU";
    auto family = perf_family(s);
    for (const char* name : {"task-clock", "page-faults", "context-switches", "cpu-migrations"}) {
        CHECK(find(family, name).available);
        CHECK(find(family, name).is_default);
    }
    const auto& ipc = find(family, "ipc");
    CHECK_FALSE(ipc.available);
    CHECK_FALSE(ipc.is_default);
    CHECK(ipc.reason == s.hardware_absent);
}

TEST_CASE("dropped LLC pair: cache-miss stays a default column but unavailable, with the reason") {
    FamilyState s = hardware_state();
    s.members = {Event::cycles, Event::instructions, Event::branches, Event::branch_misses,
                 Event::page_faults};
    s.llc_dropped = true;
    s.llc_reason = "LLC pair dropped: multiplexed";
    auto family = perf_family(s);
    const auto& cm = find(family, "cache-miss");
    CHECK_FALSE(cm.available);
    CHECK(cm.is_default);
    CHECK(cm.reason == s.llc_reason);

    auto cells = perf_cells(s, values({1000, 2000, 100, 5, 0.5}));
    REQUIRE(cell(cells, "cache-miss") != nullptr);
    CHECK(std::isnan(cell(cells, "cache-miss")->value));
    CHECK_FALSE(cell(cells, "cache-miss")->estimated);
    CHECK(cell(cells, "ipc")->value == doctest::Approx(2.0));
}

TEST_CASE("unavailable tier: nothing is default, every metric carries the reason") {
    FamilyState s;
    s.opened = true;
    s.unavailable = "perf_event_open refused";
    for (const auto& d : perf_family(s)) {
        CHECK_FALSE(d.available);
        CHECK_FALSE(d.is_default);
        CHECK(d.reason == s.unavailable);
    }
    FamilyState before_open;
    for (const auto& d : perf_family(before_open))
        CHECK(d.reason.find("not opened") != std::string::npos);
}

TEST_CASE("hardware cells: ratios and percentages from per-iteration counts") {
    // cycles, instructions, branches, branch-misses, cache-references, cache-misses, faults
    auto cells = perf_cells(hardware_state(), values({400, 1000, 200, 5, 50, 10, 0.25}));
    CHECK(cells.size() == 6);
    CHECK(cell(cells, "ipc")->value == doctest::Approx(2.5));
    CHECK(cell(cells, "instr")->value == doctest::Approx(1000));
    CHECK(cell(cells, "cycles")->value == doctest::Approx(400));
    CHECK(cell(cells, "branch-miss")->value == doctest::Approx(2.5));  // percent points
    CHECK(cell(cells, "cache-miss")->value == doctest::Approx(20.0));
    CHECK(cell(cells, "page-faults")->value == doctest::Approx(0.25));
    CHECK(cell(cells, "task-clock") == nullptr);
}

TEST_CASE("estimated passes mark every measured cell, never a nan one") {
    auto cells = perf_cells(hardware_state(), values({400, 1000, 0, 0, 50, 10, 1}, true));
    CHECK(cell(cells, "ipc")->estimated);
    CHECK(cell(cells, "instr")->estimated);
    CHECK(std::isnan(cell(cells, "branch-miss")->value));  // 0 branches: no rate
    CHECK_FALSE(cell(cells, "branch-miss")->estimated);
}

TEST_CASE("messages name the errno, the paranoid level and the remedy") {
    CHECK(describe_errno(EACCES).rfind("EACCES (", 0) == 0);
    CHECK(describe_errno(12345).rfind("errno 12345", 0) == 0);
    CHECK(describe_paranoid(2) == "kernel.perf_event_paranoid=2");
    CHECK(describe_paranoid(std::nullopt) == "kernel.perf_event_paranoid unreadable");
    CHECK(user_only_reason(EACCES, 2).find("EACCES") != std::string::npos);
    CHECK(user_only_remedy().find("sysctl kernel.perf_event_paranoid=1") != std::string::npos);
    CHECK(permission_remedy().find("sysctl kernel.perf_event_paranoid=2") != std::string::npos);

    glint::os::PmuInventory vm;
    vm.listed = true;
    vm.devices = {"breakpoint", "software", "tracepoint"};
    const std::string r = no_hardware_reason(vm, {Event::cycles, ENOENT}, "/sys/x");
    CHECK(r.find("no hardware PMU") != std::string::npos);
    CHECK(r.find("breakpoint, software, tracepoint") != std::string::npos);
    CHECK(r.find("cycles") != std::string::npos);
    CHECK(r.find("ENOENT") != std::string::npos);
    CHECK(no_hardware_remedy().find("virtual PMU") != std::string::npos);

    glint::os::PmuInventory host = vm;
    host.cpu_pmus = {"cpu"};
    CHECK(no_hardware_reason(host, {Event::cycles, EOPNOTSUPP}, "/sys/x")
              .find("lists the CPU PMU cpu") != std::string::npos);
    CHECK(llc_dropped_reason(0.5, 1000).find("0.500") != std::string::npos);
    CHECK(scope_note(true).find("and the threads that existed before the open (a group on each") !=
          std::string::npos);
    CHECK(scope_note(false).find("counts the measuring thread only") == 0);
}

TEST_CASE(
    "perf metrics: a column of nanoseconds has the time format, and no count column says ns") {
    FamilyState software;
    software.opened = true;
    software.kind = GroupKind::software;
    software.members = software_events();
    for (const auto& family : {perf_family(hardware_state()), perf_family(software)})
        for (const auto& d : family) {
            CAPTURE(d.name);
            CHECK((d.name == "task-clock") == (d.format == catalog::Format::nanoseconds));
            CHECK(d.header.find(" ns") == std::string::npos);
        }
}
