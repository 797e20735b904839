// The capabilities Linux's own probes decide: what --profile samples with (overflow-sampling),
// how it names code (symbolization: /proc/self/maps, ELF, libdw), and event naming against the
// library probe (dlopen of libpfm4): a soname that does not load, and the installed libpfm4.
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
    const Status naming = probe_capabilities(PerfRequest{}, config)[6];  // event-naming
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
    const Status naming = probe_capabilities(PerfRequest{}, config)[6];  // event-naming
    std::filesystem::remove_all(root);
    CHECK(naming.state == Status::State::available);
    CHECK(contains(naming.reason, "libpfm.so.4 loads (libpfm API 4."));
    CHECK(contains(naming.reason, "no CPU PMU here"));
}

TEST_CASE("capabilities: overflow sampling says what --profile samples with") {
    const Status s = probe_capabilities(PerfRequest{})[1];
    // Every Linux host this runs on has at least the cpu-clock timer.
    CHECK(s.state == Status::State::available);
    CHECK(contains(s.reason, "--profile samples user mode with "));
    CHECK((contains(s.reason, "cycles overflow interrupts") ||
           contains(s.reason, "cpu-clock timer")));
    CHECK(contains(s.reason, "frame-pointer call stacks"));
}

TEST_CASE("capabilities: symbolization names glint's own code, with DWARF through libdw") {
    const Status s = probe_capabilities(PerfRequest{})[3];
    CHECK(contains(s.reason, "/proc/self/maps"));
    CHECK(contains(s.reason, "ELF symbol tables"));
    const auto libdw = glint::os::probe_library("libdw.so.1");
    if (libdw.loaded) {
        CHECK(s.state == Status::State::available);
        CHECK(contains(s.reason, "DWARF through libdw.so.1 (elfutils "));
    } else {
        CHECK(s.state == Status::State::degraded);
        CHECK(s.remedy == "apt-get install libdw1");
    }
}
