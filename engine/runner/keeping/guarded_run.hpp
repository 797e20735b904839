// engine/runner/keeping/guarded_run.hpp: a --bench run with everything that keeps its rows around
// it: the table behind a TableGuard, the RunRecord (journal, abnormal-end document), the RunGuard
// (signals, --case-timeout, exit(), fatal signals) and, with --isolate, the Isolation host.
//
// Exit status: 0 every case passed; 1 a case failed (an error row), the JSON or the table could
// not be written, a case timed out or called exit() in-process, or --fail-if-slower's gate
// failed; 3 the gate could not judge a row (and nothing else failed); 128 + signal when a signal
// (or EPIPE on the standard output: 141) stopped the run. The --bench-json document is written
// in every case that reaches glint::main again, with meta.interrupted when the run stopped
// early; its journal is removed once the document is in place.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/baseline/baseline.hpp"
#include "engine/cli/run_plan.hpp"
#include "engine/environment/run_environment.hpp"
#include "engine/model/status.hpp"
#include "engine/tiers/tier_set.hpp"
#include "os/files.hpp"

namespace glint::engine {

struct BenchSetup {
    // The plan's cases, measuring, table, outputs (resolved; with one the standard output the
    // table goes to stderr, so the two never mix), knobs, and the tiers' request.
    const RunPlan& plan;
    const TierSet& tiers;  // open
    const std::vector<Status>& capabilities;
    const Baseline* baseline = nullptr;
    std::vector<std::string> header_notes;
    // The placement applied and the environment read (engine/environment/): its end-of-run
    // lines follow the tables, its meta (placement, environment, topology) goes in JSON.
    RunEnvironment* environment = nullptr;
};

int run_guarded_bench(const BenchSetup& setup);

}  // namespace glint::engine
