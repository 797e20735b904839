// engine/runner/isolation/isolated_run.hpp: --isolate, each case in a forked child process.
//
// The parent never runs a case's code. For each selected registration a child runs its body
// (phase 1: its glint::iter rows, or the whole body) and reports the bench_cases it registers;
// then each selected bench_case runs in a child of its own, which runs the registration body
// again (bench_case calls only recorded, glint::iter skipped), picks the case by its place
// among the body's bench_case calls, and measures it (setup, timing and counting passes,
// teardown). A child opens the tiers itself (a perf group counts the thread that opened it).
//
// A child's run reports into a sink that streams JSON lines on a pipe (wire.hpp); the parent
// reads each line back into its own run (a CaseSink) as it arrives. A child that does not end
// with {"end": true} becomes an error row for the case in flight (the registration when no
// case was): "killed by SIGSEGV", "exit(0) inside the case", "timeout after 300 s" (past
// --case-timeout it is killed with SIGKILL), and the run goes on with the next case. Rows the
// child finished before it died are kept. An interruption of the parent kills the child and
// stops the run (Interrupted), as without --isolate.
//
// Rows cross the pipe as JSON, so their numbers keep the 6 significant digits of --bench-json.
// Per-case records a tier keeps in its own meta (--per-iteration's cases and histograms) stay
// in the child: meta.tiers is the parent's.
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
        double timeout_s = 300;           // --case-timeout (0: none)
        std::function<void()> progress;   // while a child runs, about every 100 ms
        std::function<int()> stop_signal; // non-zero: kill the child, throw Interrupted
    };
    Isolation(const CaseRun& cases, const Measuring& measuring, const TierRequest& request, Settings settings);

    void run_body(CaseSink& run, const Columns& columns, const BodyRun& body) override;
    void run_case(CaseSink& run, const Columns& columns, const DeferredCase& d,
                  const std::string& display) override;

private:
    struct Child;
    // Runs `child_main` in a child and reports its lines into `run` (rows read against
    // `columns`); returns the error message when it did not end well (nullopt when it did).
    // Throws Interrupted.
    std::optional<std::string> run_child(CaseSink& run, const Columns& columns,
                                         const std::function<void(int fd)>& child_main, Child& received);

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
