// The seven capabilities: names, order, the honest "not-built" ones, the library probe.
#include <doctest/doctest.h>

#include <filesystem>

#include "engine/capabilities/capabilities.hpp"

using namespace glint::engine;

namespace {
bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("capabilities: the seven concerns, in order, each with a reason") {
    CapabilityProbeConfig config;
    config.pfm_soname = "libglint-no-such-library.so.0";
    auto statuses = probe_capabilities(PerfRequest{}, config);
    REQUIRE(statuses.size() == 7);
    const char* names[] = {"scalar-counting", "overflow-sampling", "precise-data-source",
                           "symbolization",   "event-space",       "numa-topology",
                           "event-naming"};
    for (std::size_t i = 0; i < 7; ++i) {
        CAPTURE(i);
        CHECK(statuses[i].capability == names[i]);
        CHECK_FALSE(statuses[i].reason.empty());
    }
}

TEST_CASE("capabilities: what glint does not implement is not-built, never 'unavailable'") {
    auto statuses = probe_capabilities(PerfRequest{});
    for (std::size_t i : {1u, 2u, 3u}) {
        CAPTURE(statuses[i].capability);
        CHECK(statuses[i].state == Status::State::not_built);
        CHECK(contains(statuses[i].reason, "glint"));
        CHECK_FALSE(statuses[i].remedy.empty());
    }
    CHECK(contains(statuses[1].reason, "counts only"));
}

TEST_CASE("capabilities: event naming is unavailable when libpfm cannot be loaded") {
    CapabilityProbeConfig config;
    config.pfm_soname = "libglint-no-such-library.so.0";
    const Status naming = probe_capabilities(PerfRequest{}, config).back();
    CHECK(naming.state == Status::State::unavailable);
    CHECK(contains(naming.reason, "libglint-no-such-library.so.0 cannot be loaded"));
    CHECK(contains(naming.reason, "raw: selectors"));
    CHECK(naming.remedy == "apt-get install libpfm4");
}

TEST_CASE("capabilities: numa-topology is unavailable where the kernel lists no node") {
    CapabilityProbeConfig config;
    config.sys_root = "/nonexistent";
    const Status numa = probe_capabilities(PerfRequest{}, config)[5];
    CHECK(numa.state == Status::State::unavailable);
    CHECK(numa.reason.rfind("the kernel lists no NUMA nodes (/nonexistent/devices/system/node)", 0) == 0);
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

TEST_CASE("capabilities: a loadable libpfm is available, scoped when there is no CPU PMU") {
    const auto probe = glint::os::probe_library("libpfm.so.4");
    if (!probe.loaded) return;  // a host without libpfm4: covered by the test above
    const auto root = std::filesystem::temp_directory_path() / "glint-capabilities-pmus";
    std::filesystem::create_directories(root / "software");
    CapabilityProbeConfig config;
    config.pmu_root = root.string();
    const Status naming = probe_capabilities(PerfRequest{}, config).back();
    std::filesystem::remove_all(root);
    CHECK(naming.state == Status::State::available);
    CHECK(contains(naming.reason, "libpfm.so.4 loads (libpfm API 4."));
    CHECK(contains(naming.reason, "no CPU PMU here"));
}
