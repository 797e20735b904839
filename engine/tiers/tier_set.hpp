// engine/tiers/tier_set.hpp: every tier of a run, opened from one request; counting tiers and
// run extensions each driven alike. The runner talks to tiers only through this: it opens
// them, asks for their catalog, header notes and meta, has each case measured, prints their
// lines and asks for a row's HTML view; it special-cases no tier.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/model/json.hpp"
#include "engine/model/row.hpp"
#include "engine/model/status.hpp"
#include "engine/tiers/escaped_work.hpp"
#include "engine/tiers/request.hpp"
#include "engine/tiers/tier.hpp"

namespace glint::engine {

// What the counting passes of one case produced.
struct CountedCase {
    std::vector<catalog::MetricCell> cells;         // every open tier's cells, in tier order
    std::optional<std::uint64_t> count_iterations;  // set when at least one pass ran
    Json row_fields = Json::object();               // every pass's row_fields, merged
};

// A count or time cell: sums over threads and differences between passes of it mean something
// (those of a ratio or a percent do not).
inline bool additive(const catalog::MetricCell& cell) {
    return cell.format == catalog::Format::count || cell.format == catalog::Format::nanoseconds;
}

// An instruction-level row's JSON "counters" under counting tiers (TierSet::count_difference).
inline constexpr const char* kCountedByDifference =
    "per instruction by the difference method: 5 pairs of counting passes ran both unrolls with "
    "one plan, and each cell is the median of the pairs' (longer - shorter) / span; ratio and "
    "percent columns read —, and no profile or per-call distribution is taken (docs/asm.md)";
inline constexpr int kDifferencePairs =
    5;  // pairs of passes an instruction-level row's cells are the median of

class TierSet {
  public:
    TierSet() = default;
    ~TierSet() { close(); }
    TierSet(const TierSet&) = delete;
    TierSet& operator=(const TierSet&) = delete;

    // Opens the tiers `request` asks for among `all` (in their order): those whose wanted() is
    // true, those one of whose columns --metrics names, or all of them for --list-metrics.
    // A tier that cannot open stays out of the run; its first status is in refusals().
    void open(const TierRequest& request, std::vector<std::unique_ptr<Tier>> all);

    // Every tier's metrics, in tier order: the opened tiers' as they report them, the others
    // listed but never a default column.
    const std::vector<catalog::MetricDescriptor>& catalog() const { return catalog_; }
    // The column selection of the run, resolved once the tiers are open: the --metrics entries
    // plus the columns open tiers keep visible beside them. Empty: every default column.
    const std::vector<std::string>& selection() const { return selection_; }
    // The statuses of every tier that was opened (usable or not), in order.
    const std::vector<Status>& statuses() const { return statuses_; }
    // The headline status of each tier that was asked for and could not open.
    const std::vector<Status>& refusals() const { return refusals_; }
    bool empty() const { return open_.empty(); }

    std::vector<std::string> header_notes() const;
    // meta.tiers: {source: the tier's meta} for every open tier.
    Json meta() const;

    // The counting passes of one case, then the extensions' own passes, each in its own pass
    // sized from the timing pass; `name` and `shown` as RunExtension::begin_case takes them.
    // `progress` runs before each pass. Exceptions from the user's code propagate.
    CountedCase count(std::string_view name, std::string_view shown, const Workload& work,
                      const TimingSummary& timing, const std::function<void()>& progress) const;

    // The counting passes of an instruction-level case (work.batch has a reference: the
    // difference method): each tier counts run() and reference() with one plan, sized per call
    // from the timing of the difference, kDifferencePairs times alternating, and every count or
    // time cell is the median of the pairs' (run's - reference's) / span, per instruction; ratio
    // and percent cells are not measured (a ratio of two differences is not the difference of
    // ratios). Extensions (profiles, distributions) take no pass. row_fields["counters"] says so.
    CountedCase count_difference(const Workload& work, const TimingSummary& timing,
                                 const std::function<void()>& progress) const;

    // The counting passes of a multi-threaded case (docs/threads.md): `one` is the case's own
    // batch, `team` the team's batch running it on `threads` threads. A tier with a twin counts
    // on every thread at once (passes of at least 20 ms unless --perf-iters is given, so they
    // overlap), each twin opened and read by its thread, and each count or time
    // cell is the threads' sum (other formats —; any thread not counted: every cell —); a tier
    // that counts the process brackets `team`; others give no cells. Extensions take no pass.
    // row_fields: "counters" (how each tier covered the threads), "threadCoverage" and
    // "threadCounts" (each thread's own cells). Exceptions from the user's code propagate.
    // `cpus`: thread i counts on cpus[i] (team_cpus; empty: where the scheduler puts it).
    CountedCase count_threads(const Workload& one, const Workload& team, unsigned threads,
                              const std::vector<unsigned>& cpus, const TimingSummary& timing,
                              const std::function<void()>& progress) const;

    // Lines every tier prints after a table (the cases counted since the last call).
    std::vector<std::string> after_table() const;

    // Lines every tier prints after the last table.
    std::vector<std::string> trailer() const;

    // Whether any tier's own output failed (RunExtension::output_failed), after trailer().
    bool output_failed() const;

    // The HTML every extension shows under `row`'s plot (RunExtension::row_html), joined.
    std::string row_html(const Row& row) const;

    // Under --isolate (RunExtension::hand_back): in a child, {source: what that tier hands back}
    // for the tiers that hand back something (an empty object when none does); in the parent, each
    // open tier takes its own source's entry.
    Json hand_back() const;
    void take_from_child(const Json& handed) const;

    void close();

  private:
    PassSizing sizing_;
    TierRequest request_;    // what the tiers were opened with (a thread twin opens with it too)
    ThreadsAtOpen at_open_;  // the process's threads just before the counters opened
    std::vector<std::unique_ptr<Tier>> open_;
    std::vector<CountingTier*> counting_;  // the open tiers of each kind, in tier order
    std::vector<RunExtension*> extensions_;
    std::vector<catalog::MetricDescriptor> catalog_;
    std::vector<Status> statuses_;
    std::vector<Status> refusals_;
    std::vector<std::string> selection_;
};

}  // namespace glint::engine
