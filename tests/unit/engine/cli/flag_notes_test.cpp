// The notes for flags that do nothing in the mode at hand (engine/cli/options.hpp).
#include <doctest/doctest.h>

#include "parse.hpp"

using namespace glint::engine;
using glint::engine::test::parse;

TEST_CASE("cli: a flag that does nothing in the mode at hand says so") {
    CHECK(ineffective_flag_notes(parse({"--bench", "--bench-json=x.json", "--perf"})).empty());
    CHECK(ineffective_flag_notes(
              parse({"--bench-json=x.json", "--bench-baseline=b.json", "--histogram=*"})) ==
          std::vector<std::string>{"--bench-json has no effect without --bench",
                                   "--bench-baseline has no effect without --bench",
                                   "--histogram has no effect without --bench"});
    CHECK(
        ineffective_flag_notes(parse({"--perf", "--metrics=ipc", "--group-by=k", "--sort-by=n"})) ==
        std::vector<std::string>{
            "--perf has no effect without --bench", "--metrics has no effect without --bench",
            "--group-by has no effect without --bench", "--sort-by has no effect without --bench"});
    // The listing opens the tiers the counting flags name; --group-by=list is a mode.
    CHECK(ineffective_flag_notes(parse({"--list-metrics", "--perf", "--metrics=ipc"})).empty());
    CHECK(ineffective_flag_notes(parse({"--group-by=list"})).empty());
    // Placement and the environment checks belong to a --bench run (the plain run does not pin).
    CHECK(ineffective_flag_notes(parse({"--pin=0", "--numa-node=0", "--quiet-environment"})) ==
          std::vector<std::string>{"--pin has no effect without --bench",
                                   "--numa-node has no effect without --bench",
                                   "--quiet-environment has no effect without --bench"});
    CHECK(ineffective_flag_notes(parse({"--bench", "--pin=auto", "--quiet-environment"})).empty());
    // What only a --bench run reads: repetitions, its reports, the baseline's gate, the profile.
    CHECK(ineffective_flag_notes(
              parse({"--bench-repeat=2", "--bench-html=r.html", "--bench-format=md",
                     "--bench-baseline=b.json", "--threshold=5", "--fail-if-slower=5"})) ==
          std::vector<std::string>{"--bench-repeat has no effect without --bench",
                                   "--bench-html has no effect without --bench",
                                   "--bench-format has no effect without --bench",
                                   "--bench-baseline has no effect without --bench",
                                   "--threshold has no effect without --bench",
                                   "--fail-if-slower has no effect without --bench"});
    CHECK(ineffective_flag_notes(parse(
              {"--profile", "--profile-samples=9", "--profile-time=5", "--profile-folded=f"})) ==
          std::vector<std::string>{"--profile has no effect without --bench",
                                   "--profile-samples has no effect without --bench",
                                   "--profile-time has no effect without --bench",
                                   "--profile-folded has no effect without --bench"});
    CHECK(ineffective_flag_notes(parse({"--list-metrics", "--profile"})).empty());
    CHECK(ineffective_flag_notes(parse({"--isolate"})).empty());  // plain tests run in children
    CHECK(ineffective_flag_notes(parse({"--case-timeout=3"})).empty());  // a plain run's watchdog
    CHECK(ineffective_flag_notes(parse({"--bench-json-samples=all"})) ==
          std::vector<std::string>{"--bench-json-samples has no effect without --bench"});
    CHECK(ineffective_flag_notes(parse({"--recover-journal=j", "--perf"})) ==
          std::vector<std::string>{"--perf has no effect with --recover-journal"});
    CHECK(ineffective_flag_notes(parse({"--recover-journal=j", "--bench-json=o.json"})).empty());
    // --list runs nothing, with or without --bench: only what shapes the listing counts.
    CHECK(ineffective_flag_notes(parse({"--list", "--bench", "--format=json", "--filter=a",
                                        "--perf", "--bench-json=x.json", "--perf"})) ==
          std::vector<std::string>{"--perf has no effect with --list",
                                   "--bench-json has no effect with --list"});
    // Named twice, noted once.
    CHECK(ineffective_flag_notes(parse({"--perf", "--perf"})).size() == 1);
}
