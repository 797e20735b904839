// engine/runner/keeping/guarded_run.hpp: a --bench run with everything that keeps its rows around it:
// the table behind a TableGuard, the RunRecord (journal, abnormal-end document), the RunGuard
// (signals, --case-timeout, exit(), fatal signals) and, with --isolate, the Isolation host.
//
// Exit status: 0 every case passed; 1 a case failed (an error row), the JSON or the table could
// not be written, or a case timed out or called exit() in-process; 128 + signal when a signal
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
    const RunPlan& plan;  // its cases, measuring, table, outputs and knobs; tiers: the request
    const TierSet& tiers;  // open
    const std::vector<Status>& capabilities;
    const Baseline* baseline = nullptr;
    const os::OutputTarget* json_target = nullptr;  // resolved and probed
    std::vector<std::string> header_notes;
    // The placement applied and the environment read (engine/environment/): its end-of-run
    // lines follow the tables, its meta (placement, environment, topology) goes in JSON.
    RunEnvironment* environment = nullptr;
    const os::OutputTarget* html_target = nullptr;  // --bench-html, resolved and probed
    // An output (--bench-json=-, --bench-html=/dev/stdout, ...) is written to the standard
    // output: the table goes to stderr instead, so the two never mix.
    bool stdout_taken = false;
};

int run_guarded_bench(const BenchSetup& setup);

}  // namespace glint::engine
