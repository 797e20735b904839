// engine/tiers/tier.hpp: the bracket interface every counting tier implements.
//
// A tier is an adapter: it opens an os/ source once per run, runs one counting pass per case
// (separate from the timing pass, so tiers never perturb timings or each other), and projects
// per-iteration catalog cells. Adding a tier is one class plus one line in tiers/registry.cpp.
//
// Contracts:
//  - open() runs once, before any case; it never throws for environment problems: it returns
//    Status values (what works, degraded how, or why not, and the remedy).
//  - family() lists every metric the tier can produce, available or not, with the reason.
//  - count() runs only after a usable open(). It brackets the workload: batched workloads in
//    brackets of plan.batch iterations (the body inlined in Workload::batch), per-call workloads
//    one call per bracket with after() outside the enabled window. It returns per-iteration
//    values, bracket self-cost subtracted, nan where not measured (never 0).
//  - Exceptions thrown by the user's code propagate out of count(); tiers stay exception-safe
//    (counters disabled on unwind).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <glint/bench.hpp>

#include "catalog/metric.hpp"
#include "engine/counting/workload.hpp"
#include "engine/model/json.hpp"
#include "engine/model/status.hpp"
#include "engine/tiers/request.hpp"

namespace glint::engine {

class Tier {
public:
    virtual ~Tier() = default;

    // The catalog source this tier contributes ("perf", "tier0", "syscall", ...).
    virtual std::string_view source() const = 0;

    // True when the request asks for this tier by its own flags or selectors. (Naming one of
    // its catalog columns in --metrics asks for it too: TierSet checks that.)
    virtual bool wanted(const TierRequest& request) const = 0;

    // Opens the tier. The returned statuses are shown in the header and JSON meta; the tier is
    // usable when the first one is.
    virtual std::vector<Status> open(const TierRequest& request) = 0;

    // Every metric this tier can produce, with availability and the reason when unavailable.
    virtual std::vector<catalog::MetricDescriptor> family() const = 0;

    // One-line disclosures for the run header (non-default states, bracket costs).
    virtual std::vector<std::string> header_notes() const { return {}; }

    // Facts for JSON meta under meta.tiers.<source> (read paths, bracket costs, ...).
    virtual Json meta() const { return Json::object(); }

    // The case the next count() measures: its row name (what --histogram globs over), and how
    // lines that must say which case it is name it, labels included ("sum [size=1024]").
    virtual void begin_case(std::string_view /*name*/, std::string_view /*shown*/) {}

    // One counting pass over `work`.
    virtual PassResult count(const Workload& work, const PassPlan& plan) = 0;

    // Lines printed right after the table that holds the cases counted since the last call
    // (e.g. --profile's flat profiles; tables are never repainted, so these follow the table's
    // last frame); none by default.
    virtual std::vector<std::string> after_table() { return {}; }

    // Lines printed after the last table (e.g. --histogram's distributions); none by default.
    virtual std::vector<std::string> trailer() const { return {}; }

    // Whether a file this tier writes itself (--profile-folded, in trailer()) could not be
    // written: the run's exit status is then not 0. False by default.
    virtual bool output_failed() const { return false; }

    // Under --isolate each case is counted by this tier's twin in a child process. What the
    // child's tier must hand back for the run's end (e.g. --profile-folded's stacks, which the
    // parent writes once) is hand_back(): called in the child after its cases, null when there
    // is nothing; the parent's tier receives it in take_from_child(). Neither by default.
    virtual Json hand_back() { return Json(); }
    virtual void take_from_child(const Json& /*handed*/) {}

    // Columns this tier keeps visible beside an explicit --metrics list, because a flag of its
    // own asked for them (--syscalls); none by default. Called after open().
    virtual std::vector<std::string> kept_columns(const TierRequest& /*request*/) const {
        return {};
    }

    virtual void close() {}
};

}  // namespace glint::engine
