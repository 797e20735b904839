// engine/runner/isolation/isolated_run.hpp: --isolate, each case in a forked child process.
// The parent never runs a case's code: a child per registration runs its body (phase 1) and
// reports its bench_cases; a child per bench_case measures that case. A child opens the tiers
// itself and reports into a sink that writes JSON lines (wire.hpp); the parent reads them into
// its own CaseSink. A child that does not end with {"end": true} becomes an error row for the
// case in flight ("killed by SIGSEGV", "exit(0) inside the case", "timeout after 300 s"), rows
// it finished are kept, and the run goes on; an interruption of the parent kills the child and
// throws Interrupted.
// Rationale and details: docs/rationale.md, "engine/runner/isolation/isolated_run.hpp".
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/cli/run_plan.hpp"
#include "engine/runner/bench/bench_run.hpp"
#include "engine/runner/modes/plain_run.hpp"

namespace glint::engine {

class Isolation final : public CaseHost {
  public:
    struct Settings {
        double timeout_s = 300;            // --case-timeout (0: none)
        std::function<void()> progress;    // while a child runs, about every 100 ms
        std::function<int()> stop_signal;  // non-zero: kill the child, throw Interrupted
    };
    Isolation(const CaseRun& cases, const Measuring& measuring, const TierRequest& request,
              Settings settings);

    void run_body(CaseSink& run, const Columns& columns, const BodyRun& body) override;
    void run_case(CaseSink& run, const Columns& columns, const DeferredCase& d,
                  const std::string& display) override;

  private:
    struct Child;
    // Runs `child_main` in a child and reports its lines into `run` (rows read against
    // `columns`); returns the error message when it did not end well (nullopt when it did).
    // Throws Interrupted.
    std::optional<std::string> run_child(CaseSink& run, const Columns& columns,
                                         const std::function<void(int fd)>& child_main,
                                         Child& received);

    const CaseRun& cases_;
    const Measuring& measuring_;
    const TierRequest& request_;
    Settings settings_;
};

// The plain run (no --bench) under --isolate: each selected registration's cases run once in a
// child process of their own, which prints their ok/FAIL lines; a child that dies adds a FAIL
// line for the case in flight ("killed by SIGSEGV", "exit(0) inside the case", "timeout
// after 300 s") and the run goes on.
PlainCounts run_plain_isolated(const CaseRun& cases);

// The bench_cases the selected bodies register (discover_cases), found in a child process so
// a body that crashes cannot take the caller with it. nullopt, with `problem`, when the child
// did not finish.
std::optional<std::vector<DiscoveredCase>> discover_in_child(const CaseRun& cases, double timeout_s,
                                                             std::string& problem);

}  // namespace glint::engine
