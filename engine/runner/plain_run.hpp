// engine/runner/plain_run.hpp: runs without --bench. Every selected case runs once as a plain
// test (iter calls its callable once; bench_case runs setup, timed, after, teardown), so
// benchmarks double as tests. Also the discovery run behind --group-by=list.
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
    std::string registration;
    std::string name;
    Labels labels;  // sorted by key
    std::vector<glint::Metric> metrics;
};

// Runs the selected bodies without measuring (iter does not call its callable, bench_case only
// records) and returns the bench_cases they register.
std::vector<DiscoveredCase> discover_cases(const Options& options);

}  // namespace glint::engine
