// engine/tiers/tier.hpp: the tier contract, in two kinds; a tier is one or both, and adding one
// is a class plus one line in tiers/registry.cpp. A counting tier opens an os/ source once per
// run and runs one counting pass per case (apart from the timing pass), returning per-iteration
// catalog cells, bracket self-cost subtracted, nan where not measured (never 0). A run extension
// hooks the run (its own pass, lines after a table, a trailer, a child's hand-back, a row's HTML
// view). open() never throws for environment problems: it returns Status values with the reason
// and remedy. Exceptions from the user's code propagate out of count() and pass(); tiers stay
// exception-safe (counters disabled on unwind).
// Rationale and details: docs/rationale.md, "engine/tiers/tier.hpp".
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

struct Row;
class CountingTier;
class RunExtension;

// What a run opens from its request: a counting tier, a run extension, or both.
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
    virtual std::vector<catalog::MetricDescriptor> family() const { return {}; }

    // One-line disclosures for the run header (non-default states, bracket costs).
    virtual std::vector<std::string> header_notes() const { return {}; }

    // Facts for JSON meta under meta.tiers.<source> (read paths, bracket costs, ...).
    virtual Json meta() const { return Json::object(); }

    virtual void close() {}

    // Its kinds (null: not of that kind); owned by the tier.
    virtual CountingTier* counting() { return nullptr; }
    virtual RunExtension* extension() { return nullptr; }
};

// A tier that produces columns by counting passes.
class CountingTier : public Tier {
  public:
    // One counting pass over `work`.
    virtual PassResult count(const Workload& work, const PassPlan& plan) = 0;
    CountingTier* counting() override { return this; }

    // A multi-threaded case's threads (docs/threads.md). A tier whose counters belong to the
    // thread that opens them gives a twin: unopened, of the same kind, opened with the run's
    // request on a worker, which then counts itself. A tier that counts the whole process
    // already says so (its pass brackets the team). Neither: the row's cells read —.
    virtual std::unique_ptr<CountingTier> thread_twin() const { return nullptr; }
    virtual bool counts_process() const { return false; }
};

// Hooks a run drives around its cases and tables; every one does nothing by default.
class RunExtension {
  public:
    virtual ~RunExtension() = default;

    // The case the next passes measure: its row name (what --histogram globs over), and how
    // lines that must say which case it is name it, labels included ("sum [size=1024]").
    virtual void begin_case(std::string_view /*name*/, std::string_view /*shown*/) {}

    // Whether the extension runs a pass of its own, after the case's counting passes (sized as
    // they are); pass() runs it and returns fields for the case's JSON row ("profile").
    virtual bool has_pass() const { return false; }
    virtual Json pass(const Workload& /*work*/, const PassPlan& /*plan*/) { return Json::object(); }

    // Lines printed right after the table that holds the cases measured since the last call
    // (tables are never repainted, so these follow the table's last frame).
    virtual std::vector<std::string> after_table() { return {}; }

    // Lines printed after the last table (e.g. --histogram's distributions).
    virtual std::vector<std::string> trailer() const { return {}; }

    // Whether a file the extension writes itself (in trailer()) could not be written: the
    // run's exit status is then not 0.
    virtual bool output_failed() const { return false; }

    // Under --isolate each case runs in a child process. What the child's extension must hand
    // back for the run's end is hand_back() (called in the child after its cases; null when
    // there is nothing); the parent's twin receives it in take_from_child().
    virtual Json hand_back() { return Json(); }
    virtual void take_from_child(const Json& /*handed*/) {}

    // Columns kept visible beside an explicit --metrics list, because a flag of the tier's own
    // asked for them (--syscalls). Called after open().
    virtual std::vector<std::string> kept_columns(const TierRequest& /*request*/) const {
        return {};
    }

    // HTML shown under the row's plot in --bench-html (from the row's JSON fields); "" none.
    virtual std::string row_html(const Row& /*row*/) const { return {}; }
};

}  // namespace glint::engine
