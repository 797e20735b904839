// engine/runner/plain_run.hpp: runs without --bench. Every selected case runs once as a plain
// test (iter calls its callable once; bench_case runs setup, timed, after, teardown), so
// benchmarks double as tests; each prints as "ok    <path> [key=value,...]". Also the discovery
// run behind --list, --group-by=list and --list-metrics.
#pragma once

#include <string>
#include <vector>

#include "engine/cli/options.hpp"
#include <glint/bench.hpp>

#include "engine/model/row.hpp"

namespace glint::engine {

// Returns the exit status: 0 when every case passed, 1 otherwise.
int run_plain(const Options& options);

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
std::vector<DiscoveredCase> discover_cases(const Options& options);

}  // namespace glint::engine
