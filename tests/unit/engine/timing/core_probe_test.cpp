// The core-speed probe around batched samples (engine/timing/core_probe.hpp): which samples ran
// on a slowed core, and which probes say nothing because they lost the CPU.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/timing/core_probe.hpp"

using namespace glint::engine;

TEST_CASE("core probe: a sample is slow when a probe beside it reads over 10% above the fastest") {
    // probes[i] before sample i, probes[i + 1] after it: 5 samples.
    const std::vector<double> probes{0.27, 0.27, 0.50, 0.27, 0.29, 0.27};
    const auto slow = slow_core_samples(probes, 5);
    CHECK(slow == std::vector<bool>{false, true, true, false, false});
}

TEST_CASE("core probe: a probe that lost the CPU is no evidence, the other probe decides") {
    // The scheduler switches right after a CPU read, inside the probe: it reads ms, not ns.
    const std::vector<double> probes{0.27, 500.0, 0.27, 0.27, 0.45, 500.0};
    const auto slow = slow_core_samples(probes, 5);
    CHECK(slow == std::vector<bool>{false, false, false, true, true});
}

TEST_CASE("core probe: probes that do not bracket the samples mark nothing") {
    CHECK(slow_core_samples(std::vector<double>{0.27, 0.5}, 3) == std::vector<bool>(3, false));
    CHECK(slow_core_samples(std::vector<double>{}, 0).empty());
}

TEST_CASE("core probe: a probe reads a positive time per step of about one add") {
    for (int i = 0; i < 3; ++i) {
        const double ns = probe_step_ns();
        CHECK(ns > 0);
        CHECK(ns < 1000);  // a dependent add is a cycle or a few, not a microsecond
    }
}

TEST_CASE("core probe: a pass's core speed is its probes' median, probes that lost the CPU aside") {
    // Mostly slowed: the fastest probe (0.27) would call the pass full speed; the median does not.
    CHECK(pass_core_step(std::vector<double>{0.27, 0.44, 0.45, 0.44, 0.46}) == 0.44);
    // Three probes lost the CPU (over 4x the fastest): they are no reading of the core.
    CHECK(pass_core_step(std::vector<double>{0.27, 500.0, 0.28, 400.0, 0.27, 300.0}) == 0.27);
    CHECK(std::isnan(pass_core_step(std::vector<double>{})));
}
