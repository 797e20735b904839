// The event-naming capability against Linux's own library probe (dlopen of libpfm4): a soname
// that does not load, and the installed libpfm4 where it loads.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "engine/capabilities/capabilities.hpp"
#include "support/skip.hpp"

using namespace glint::engine;

namespace {
bool contains(const std::string& text, std::string_view part) {
    return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("capabilities: event naming is unavailable when libpfm cannot be loaded") {
    CapabilityProbeConfig config;
    config.pfm_soname = "libglint-no-such-library.so.0";
    const Status naming = probe_capabilities(PerfRequest{}, config).back();
    CHECK(naming.state == Status::State::unavailable);
    CHECK(contains(naming.reason, "libglint-no-such-library.so.0 cannot be loaded"));
    CHECK(contains(naming.reason, "raw: selectors"));
    CHECK(naming.remedy == "apt-get install libpfm4");
}

TEST_CASE("capabilities: a loadable libpfm is available, scoped when there is no CPU PMU") {
    const auto probe = glint::os::probe_library("libpfm.so.4");
    if (!probe.loaded)
        return glint::test::skip("libpfm4 does not load here (" + probe.error +
                                 "): the test above covers that case");
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
