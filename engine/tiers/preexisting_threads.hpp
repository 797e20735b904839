// engine/tiers/preexisting_threads.hpp: under --perf-inherit, the threads that existed before a
// one-thread row's counters opened, counted too (inherit follows only the threads the measuring
// thread starts afterwards). Each tier counting under inherit (perf, raw:, pfm:, syscalls) opens
// one group of its own events per such thread (pid = its tid, inherit on: what it starts is
// counted with it), left enabled and read with read(2) just before and just after each of its
// counting passes, outside the measuring thread's brackets. Their counts over the pass's
// iterations are added to that tier's count and time cells (docs/threads.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/metric.hpp"
#include "engine/counting/event_counter.hpp"
#include "engine/counting/pass_math.hpp"
#include "engine/model/json.hpp"
#include "os/perf_events.hpp"

namespace glint::engine {

// A thread alive when the groups opened, other than the measuring thread and glint's own.
struct PreexistingThread {
    long tid = 0;
    std::string name;
    int error = 0;            // errno its open failed with (ESRCH: it had exited); 0 counted
    bool over_limit = false;  // not opened: kMaxPreexisting were already
};
// Groups opened at most: each costs a file descriptor per event.
inline constexpr std::size_t kMaxPreexisting = 64;

// One group's counts between two reads, as the pass adds them: a thread that did not run
// (enabled 0) adds 0; one multiplexed adds its counts scaled by enabled / running, estimated;
// one never on the PMU while it ran (running 0), or a read that failed: not measured (ok false).
struct OtherCounts {
    std::array<double, os::kMaxGroupEvents> values{};
    std::size_t size = 0;
    bool ok = true;
    bool estimated = false;
};
OtherCounts other_counts(const os::GroupDelta& delta);

// Pure: `cells` (the measuring thread's pass) with `others` (the same metrics made from the
// other threads' counts per iteration, same order) added. Count and time cells add (nan either
// side: nan), estimated when either is. Ratio and percent cells stay when the other threads
// counted nothing in the pass (every additive cell of `others` 0), else read —: the measuring
// thread's ratio beside every thread's sums would not be the ratio of the cells shown.
std::vector<catalog::MetricCell> add_other_threads(std::vector<catalog::MetricCell> cells,
                                                   const std::vector<catalog::MetricCell>& others);

// Pure: end()'s figures (group order) in an EventCounter's requested order: spec i's is the
// group member positions[i] (EventCounter::positions()); nan for a spec that did not open.
std::vector<double> in_spec_order(const counting::PerIteration& per,
                                  const std::vector<int>& positions);

// Pure: one row's threadCoverage part from two tiers' coverage() (either null), as one: a thread
// any tier missed is in preExistingMissed (`tiers` the sources that missed it, `why` each one's
// reason, "raw: …; pfm: …", once when they agree), else in preExisting; null when both are.
Json merge_coverage(const Json& into, const Json& part);

class PreexistingThreads {
  public:
    // Opens a group like `like` (its events or specs and exclude flags, no user access, inherit
    // on) on each thread of the process now but the calling thread (glint starts none of its own
    // before the counters open: the run guard's watcher starts after). A thread whose open fails
    // is kept with its errno: reported, not an error; beyond kMaxPreexisting none is opened.
    // `tier`: the source whose columns they join (meta.tiers' key), named in coverage().
    void open(const os::GroupSpec& like, std::string tier = "perf");
    void close();

    bool any_counted() const { return !groups_.empty(); }

    // Reads every group (just before a pass).
    void begin();
    // Reads them again (just after it): the counts since begin(), summed over the threads, per
    // iteration; every value nan when a group could not be read or was never scheduled.
    counting::PerIteration end(std::uint64_t iterations);

    // rows[].threadCoverage's part: {"preExisting": [{tid, name}] counted, "preExistingMissed":
    // [{tid, name, why, tiers: [tier]}]}; null when there were no such threads.
    Json coverage() const;

  private:
    std::string tier_;
    std::vector<PreexistingThread> threads_;
    std::vector<os::PerfGroup> groups_;  // one per counted thread, in threads_ order
    std::vector<os::GroupReading> before_;
};

// One column of a tier that counts with an EventCounter: what it shows, and where the counter
// keeps its value (`position`: its index among the specs handed to the counter).
struct CounterColumn {
    catalog::MetricDescriptor descriptor;
    std::size_t position = 0;
    bool counting = false;  // false: the column reads —
};

// One counting pass of `counter` over `columns`, with `others` read around it and their counts
// added to the cells (add_other_threads) and their threadCoverage in row_fields.
PassResult count_with_preexisting(counting::EventCounter& counter, PreexistingThreads& others,
                                  const std::vector<CounterColumn>& columns, const Workload& work,
                                  const PassPlan& plan);

}  // namespace glint::engine
