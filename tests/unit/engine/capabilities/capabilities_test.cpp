// The seven capabilities on every build: names, order, the honest "not-built" ones, the JSON.
// Linux's probes (what --profile samples with, how it symbolizes, libpfm):
// capabilities_linux_test.cpp, capabilities_seam_linux_test.cpp; an OS without counters:
// capabilities_other_test.cpp.
#include <doctest/doctest.h>

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
    for (std::size_t i : {2u, 5u}) {
        CAPTURE(statuses[i].capability);
        CHECK(statuses[i].state == Status::State::not_built);
        CHECK(contains(statuses[i].reason, "glint"));
        CHECK_FALSE(statuses[i].remedy.empty());
    }
    CHECK(contains(statuses[2].reason, "no data addresses, data sources or load latencies"));
    CHECK(contains(statuses[5].remedy, "numactl"));
}

TEST_CASE("capabilities: NUMA nodes are counted from the node directory") {
    CapabilityProbeConfig config;
    config.node_root = "/nonexistent";
    CHECK(contains(probe_capabilities(PerfRequest{}, config)[5].reason, "NUMA layout is unknown"));
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
