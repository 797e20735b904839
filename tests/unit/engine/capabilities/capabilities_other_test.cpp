// The capability probe of a build for an OS without a counter back end (GLINT_OS=other): what
// needs the kernel is unavailable with the reason, what glint does not implement stays
// not-built, and nothing claims to be available.
#include <doctest/doctest.h>

#include <string>

#include "engine/capabilities/capabilities.hpp"

using namespace glint::engine;

namespace {
bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE(
    "capabilities off Linux: counting, tracepoints and event naming are unavailable, saying why") {
    PerfRequest perf;
    perf.asked = true;
    const auto statuses = probe_capabilities(perf);
    REQUIRE(statuses.size() == 10);
    for (const Status& s : statuses) {
        CAPTURE(s.capability);
        CHECK(s.state != Status::State::available);
        CHECK_FALSE(s.reason.empty());
    }
    CHECK(statuses[0].state == Status::State::unavailable);  // scalar-counting
    CHECK(contains(statuses[0].reason, "perf_event_open is not available here"));
    CHECK(statuses[4].state == Status::State::unavailable);  // event-space
    CHECK(contains(statuses[4].reason, "Linux"));
    CHECK(statuses[6].state == Status::State::unavailable);  // event-naming
    CHECK(contains(statuses[6].reason, "Linux-only"));
    CHECK(statuses[6].remedy.empty());  // installing libpfm4 would not help here
}

TEST_CASE("capabilities off Linux: event naming does not promise what cannot count here") {
    const Status naming = probe_capabilities(PerfRequest{})[6];
    CHECK(naming.capability == "event-naming");
    CHECK(contains(naming.reason, "pfm: selectors cannot resolve names"));
    CHECK_FALSE(contains(naming.reason, "still work"));  // raw: and generic events do not either
}

TEST_CASE("capabilities off Linux: --profile can neither sample nor name code, saying why") {
    const auto statuses = probe_capabilities(PerfRequest{});
    CHECK(statuses[1].capability == "overflow-sampling");
    CHECK(statuses[1].state == Status::State::unavailable);
    CHECK(contains(statuses[1].reason, "no sampling event opens"));
    CHECK(statuses[3].capability == "symbolization");
    CHECK(statuses[3].state == Status::State::unavailable);
    CHECK(contains(statuses[3].reason, "this OS has neither"));
}
