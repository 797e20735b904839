// engine/counting/workload.hpp: what a measuring pass runs and returns, shared by the counting
// layer, the sampling pass and the tiers (engine/tiers/tier.hpp) that drive them.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include <glint/bench.hpp>

#include "catalog/metric.hpp"
#include "engine/model/json.hpp"

namespace glint::engine {

// What a counting pass runs. Exactly one of batch / per_call is set.
struct Workload {
    glint::detail::Batch batch{};                // batch.run(ctx, n): n iterations, body inlined
    glint::detail::PerCall* per_call = nullptr;  // timed() bracketed; after() outside the window

    bool batched() const { return batch.run != nullptr; }
    // Per-call workloads: runs after() for the last timed() call; throws CaseFailure when it
    // reports an error (exceptions from after() itself propagate unchanged).
    void after_one() const;
};

// An `after` hook reported an error: the case becomes an error row.
struct CaseFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct PassPlan {
    std::uint64_t iterations = 1;  // total iterations the pass counts
    std::uint64_t batch = 1;       // iterations per bracket (always 1 for per-call workloads)
};

struct PassResult {
    std::vector<catalog::MetricCell> cells;  // per-iteration values
    Json row_fields = Json::object();        // fields for the case's JSON row (countSpread)
};

}  // namespace glint::engine
