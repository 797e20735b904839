// engine/runner/modes/plain_run.hpp: runs without --bench. Every selected case runs once as a plain
// test (iter calls its callable once; bench_case runs setup, timed, after, teardown), so
// benchmarks double as tests; each prints as "ok    <display name>" (model/row.hpp). Also the
// discovery run behind --list, --group-by=list and --list-metrics.
#pragma once

#include <string>
#include <vector>

#include <glint/bench.hpp>
#include "engine/cli/run_plan.hpp"

#include "engine/model/row.hpp"
#include "engine/registry/registry.hpp"
#include "engine/runner/body_runs.hpp"

namespace glint::engine {

struct PlainCounts {
    int passed = 0;
    int failed = 0;
};
// Prints the run's summary line; returns the exit status: 0 when every case passed, 1
// otherwise. A case that calls exit() or quick_exit() fails the run (run_plain_cases); with
// --isolate each body run runs in a child process (runner/isolation: run_plain_isolated).
int plain_summary(const PlainCounts& counts);
// Told of each case as it starts and ends (an isolated child forwards it to its parent).
class PlainListener {
  public:
    virtual ~PlainListener() = default;
    virtual void started(const std::string& name) = 0;
    virtual void ended(bool passed) = 0;
    // A bench_case the filter selects, the `index`-th of its body run: true keeps it from
    // running here (an isolated run runs it in a child of its own).
    virtual bool defer(const glint::CaseInfo&, std::size_t /*index*/) { return false; }
};

// A case's line: "ok    NAME", or "FAIL  NAME: WHY" (also on stderr); flushed at once.
void print_plain_result(const std::string& name, const std::string* failure);
// The cases of the selected body runs (only `only`, whose ParamScope the caller holds, when
// given), each line printed; no summary. Without a listener, exit() inside a case is caught
// (see plain_summary).
PlainCounts run_plain_cases(const CaseRun& cases, const BodyRun* only,
                            PlainListener* listener = nullptr);

struct DiscoveredCase {
    enum class Kind { body, iter, bench_case };
    std::string registration;
    std::string name;  // the bench_case's name; "" for a registration's own rows
    std::string path;  // what --filter's name terms match (case_filter.hpp)
    Kind kind = Kind::body;
    Labels labels;  // sorted by key (parameters' included)
    std::vector<glint::Metric> metrics;
};

// Runs the selected bodies without measuring (iter does not call its callable, bench_case only
// records) and returns every case --filter selects: whole bodies, iters and bench_cases, in
// registration order.
std::vector<DiscoveredCase> discover_cases(const CaseRun& cases);

}  // namespace glint::engine
