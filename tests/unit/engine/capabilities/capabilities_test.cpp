// The eight capabilities on every build: names, order, the honest "not-built" ones, the JSON.
// Linux's probes (what --profile samples with, how it symbolizes, libpfm):
// capabilities_linux_test.cpp, capabilities_seam_linux_test.cpp; an OS without counters:
// capabilities_other_test.cpp.
#include <doctest/doctest.h>

#include <glint/detail/config.hpp>  // GLINT_CONFIG_ARCH_x86_64

#include "engine/capabilities/capabilities.hpp"

using namespace glint::engine;

namespace {
bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("capabilities: the ten concerns, in order, each with a reason") {
    CapabilityProbeConfig config;
    config.pfm_soname = "libglint-no-such-library.so.0";
    auto statuses = probe_capabilities(PerfRequest{}, config);
    REQUIRE(statuses.size() == 10);
    const char* names[] = {"scalar-counting", "overflow-sampling", "precise-data-source",
                           "symbolization",   "event-space",       "numa-topology",
                           "event-naming",    "instruction-level", "thread-coverage",
                           "simulated-cpu"};
    for (std::size_t i = 0; i < 10; ++i) {
        CAPTURE(i);
        CHECK(statuses[i].capability == names[i]);
        CHECK_FALSE(statuses[i].reason.empty());
    }
}

TEST_CASE("capabilities: what glint does not implement is not-built, never 'unavailable'") {
    auto statuses = probe_capabilities(PerfRequest{});
    const Status& precise = statuses[2];
    CHECK(precise.capability == "precise-data-source");
    CHECK(precise.state == Status::State::not_built);
    CHECK(contains(precise.reason, "glint"));
    CHECK_FALSE(precise.remedy.empty());
    CHECK(contains(statuses[2].reason, "no data addresses, data sources or load latencies"));
}

TEST_CASE("capabilities: numa-topology is unavailable where the kernel lists no node") {
    CapabilityProbeConfig config;
    config.sys_root = "/nonexistent";
    const Status numa = probe_capabilities(PerfRequest{}, config)[5];
    CHECK(numa.state == Status::State::unavailable);
    CHECK(numa.reason.rfind("the kernel lists no NUMA nodes (/nonexistent/devices/system/node)",
                            0) == 0);
    CHECK(numa.remedy == "a kernel built with CONFIG_NUMA");
}

TEST_CASE("capabilities_json: one object per capability, remedy only when there is one") {
    std::vector<Status> statuses{{"a", Status::State::available, "works", ""},
                                 {"b", Status::State::not_built, "absent", "do x"}};
    Json j = capabilities_json(statuses);
    REQUIRE(j.size() == 2);
    CHECK(j.as_array()[0].at("capability").as_string() == "a");
    CHECK(j.as_array()[0].at("state").as_string() == "available");
    CHECK_FALSE(j.as_array()[0].contains("remedy"));
    CHECK(j.as_array()[1].at("state").as_string() == "not-built");
    CHECK(j.as_array()[1].at("remedy").as_string() == "do x");
}

TEST_CASE(
    "capabilities: instruction-level cases are available on x86-64 and AArch64, and say what a row "
    "reports") {
    const Status asm_cases = probe_capabilities(PerfRequest{})[7];
    CHECK(asm_cases.capability == "instruction-level");
#if defined(GLINT_CONFIG_ARCH_x86_64) || defined(GLINT_CONFIG_ARCH_aarch64)  // glint's back end
    CHECK(asm_cases.state == Status::State::available);
    CHECK(contains(asm_cases.reason, "time per instruction by the difference method"));
    CHECK(contains(asm_cases.reason, "counters per instruction by the same difference"));
#else
    CHECK(asm_cases.state == Status::State::not_built);
    CHECK(
        contains(asm_cases.reason, "need the x86-64 (xbyak) or the AArch64 (glint::a64) emitter"));
#endif
}

TEST_CASE(
    "capabilities: thread coverage says whose work a multi-threaded row counts, or that nothing is "
    "counted") {
    const auto statuses = probe_capabilities(PerfRequest{});
    const Status& threads = statuses[8];
    CHECK(threads.capability == "thread-coverage");
    if (statuses.front().usable()) {
        CHECK(threads.state == Status::State::available);
        CHECK(contains(threads.reason,
                       "each thread opens and reads its own perf, raw: and pfm: groups"));
        CHECK(contains(threads.reason, "--perf-inherit"));
        CHECK(contains(threads.reason, "those already running through a group on each"));
        CHECK(contains(threads.reason, "child processes not waited for"));
    } else {
        CHECK(threads.state == Status::State::unavailable);
        CHECK(contains(threads.reason, "never counted"));
    }
}

TEST_CASE("capabilities: simulated-cpu says whether --simulate can start Callgrind, and why not") {
    const Status sim = probe_capabilities(PerfRequest{})[9];
    CHECK(sim.capability == "simulated-cpu");
    CHECK_FALSE(sim.reason.empty());
    if (sim.state == Status::State::available) CHECK(contains(sim.reason, "callgrind"));
    if (sim.state == Status::State::not_built) CHECK(contains(sim.reason, "valgrind/callgrind.h"));
    if (sim.state != Status::State::available) CHECK_FALSE(sim.remedy.empty());
}
