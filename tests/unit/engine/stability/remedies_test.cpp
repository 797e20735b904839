// The legend's remedies leave out what the run already did (engine/stability/remedies.hpp).
#include <doctest/doctest.h>

#include "../report/rows.hpp"
#include "engine/stability/remedies.hpp"
#include "engine/stability/unstable_legend.hpp"

using namespace glint::engine;
using namespace glint::engine::report::testing;

namespace {

Row marked(std::vector<std::string> reasons) {
    Row row = timed_row("r", batched(32, 1'000'000, 1.0, 0.01, 0.99, 1.02));
    row.stability = CaseStability{{0}, 0, 0, std::move(reasons), {}};
    return row;
}

RemedyContext unpinned() { return {}; }
RemedyContext pinned() { return {.pinned = true}; }
RemedyContext pinned_isolated() { return {.pinned = true, .cpu_isolated = true}; }

}  // namespace

TEST_CASE("remedies: noise asks for --pin only when the run was not pinned") {
    for (const char* reason : {"spread", "cpu-time", "disturbed", "split"}) {
        CHECK(reason_remedy(reason, unpinned()) == "try --pin, a quieter machine");
        CHECK(reason_remedy(reason, pinned()) ==
              "pinned already: a quieter machine, or an isolated CPU (isolcpus)");
        CHECK(reason_remedy(reason, pinned_isolated()) ==
              "pinned to an isolated CPU already: a quieter machine");
    }
    CHECK(reason_remedy("migrated", unpinned()) == "try --pin");
    CHECK(reason_remedy("preempted", unpinned()) == "try --pin to a quiet CPU");
    CHECK(reason_remedy("preempted", pinned()) ==
          "pinned already: a quieter machine, or an isolated CPU (isolcpus)");
    // The legend under the table says the same, and never --pin after --pin.
    const auto lines =
        unstable_legend({marked({"spread"}), marked({"cpu-time", "preempted"})}, {}, pinned());
    REQUIRE(lines.size() == 4);
    for (std::size_t i = 1; i < lines.size(); ++i) {
        CHECK(lines[i].ends_with(
            " · pinned already: a quieter machine, or an isolated CPU (isolcpus)"));
        CHECK(lines[i].find("--pin") == std::string::npos);
    }
}

TEST_CASE("remedies: run-delay asks to pin to a quiet CPU only when the run was not pinned") {
    CHECK(reason_remedy("run-delay", unpinned()) ==
          "try --pin to a quiet CPU, or stop the task that wants it");
    CHECK(reason_remedy("run-delay", pinned()) ==
          "another task wanted the pinned CPU: stop it, or isolate that CPU (isolcpus)");
    CHECK(reason_remedy("run-delay", pinned_isolated()) ==
          "another task wanted the pinned CPU: stop it");
    CHECK(reason_remedy("steal", pinned()) ==
          "try a dedicated or quiet VM (another guest shares the host)");
    CHECK(reason_remedy("from-the-future", unpinned()).empty());
}

TEST_CASE(
    "remedies: short samples ask for a longer --bench-min-time only when it is below the timer's "
    "reach") {
    RemedyContext done;
    done.timer_step_ns = 20;
    done.min_time_ms =
        5;  // 1000 steps of 20 ns are 0.02 ms: the short samples are pinned iterations'
    CHECK(reason_remedy("timer-resolution", done, 1000) ==
          "try more iterations per sample (glint::iterations)");
    done.min_time_ms = 0.001;
    // Four times the 1000 steps: samples after the doubling can be shorter than its last one.
    CHECK(reason_remedy("timer-resolution", done, 1000) ==
          "try --bench-min-time=0.08 or more (a sample needs 1000 timer steps)");
    done.timer_step_ns = 25.6;  // rounded up to two digits: the value suggested is enough
    CHECK(reason_remedy("timer-resolution", done, 1000) ==
          "try --bench-min-time=0.11 or more (a sample needs 1000 timer steps)");
    done.min_time_ms = 0.11;
    CHECK(reason_remedy("timer-resolution", done, 1000) ==
          "try more iterations per sample (glint::iterations)");
    done.timer_step_ns = 0;  // the step unknown: no --bench-min-time to suggest
    done.min_time_ms = 0.001;
    CHECK(reason_remedy("timer-resolution", done, 1000) ==
          "try more iterations per sample (glint::iterations)");
}

TEST_CASE("remedies: a run confined to one CPU counts as pinned, to an isolated one as isolated") {
    glint::os::EnvironmentFacts f;
    f.cpus = {3};
    CHECK(remedy_context(&f, 5, 20).pinned);
    CHECK_FALSE(remedy_context(&f, 5, 20).cpu_isolated);  // the kernel does not say
    f.isolated = std::vector<unsigned>{2, 3};
    CHECK(remedy_context(&f, 5, 20).cpu_isolated);
    f.isolated = std::vector<unsigned>{2};
    CHECK_FALSE(remedy_context(&f, 5, 20).cpu_isolated);
    f.cpus = {0, 1};
    CHECK_FALSE(remedy_context(&f, 5, 20).pinned);
    CHECK_FALSE(remedy_context(nullptr, 5, 20).pinned);
    CHECK(remedy_context(nullptr, 0.5, 20).min_time_ms == 0.5);
    CHECK(remedy_context(nullptr, 0.5, 20).timer_step_ns == 20);
}
