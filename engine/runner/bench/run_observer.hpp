// engine/runner/bench/run_observer.hpp: what watches a bench run besides its table. BenchRun tells
// its observer when a case starts (a registration body, a bench_case's setup, or a row's
// measurement), when a row is finished (measured or an error row), and calls checkpoint()
// between samples and passes, outside every timed window. In the runner's process the
// observer is the run guard (engine/runner/keeping/run_guard.hpp: the journal, timeouts, signals);
// in an isolated child it streams the rows to the parent
// (engine/runner/isolation/isolated_run.hpp).
#pragma once

#include <string>
#include <vector>

#include <glint/bench.hpp>

#include "catalog/metric.hpp"
#include "engine/model/row.hpp"

namespace glint::engine {

// Thrown by checkpoint() when the run must stop (a signal, or the standard output closed):
// BenchRun lets it through every catch, and glint::main ends the run with the rows it has.
struct Interrupted {
    int signal = 0;  // the signal that asked for the stop (SIGPIPE for a closed output)
};

class RunObserver {
  public:
    virtual ~RunObserver() = default;
    // `name` is the row's name (a registration's for its body), `labels` its labels (sorted).
    virtual void case_started(const std::string& name, const Labels& labels) = 0;
    virtual void row_finished(const Row& row) = 0;
    // May throw Interrupted.
    virtual void checkpoint() {}
    // The JSON columns as the run knows them so far (they grow as bodies declare metrics).
    virtual void columns_known(const std::vector<catalog::MetricDescriptor>&) {}
    // The client metrics of the iter row about to be measured (its own given: resolved).
    virtual void client_metrics(const std::vector<glint::Metric>&) {}
};

}  // namespace glint::engine
