// engine/counting/event_counter.hpp: one counting group of arbitrary events (raw:, pfm:,
// syscall tracepoints), driven by the perf tier's pass machinery.
//
// open(): opens the specs as one group (specs[0] leads), dropping a member the kernel refuses
// and retrying with the rest, so one bad event costs its own column only; then measures the
// bracket's self-cost at open (median of empty brackets, calibrate_path) for the
// header. count(): run_pass over the syscall read path (ioctl ENABLE/DISABLE + one
// read(2) per bracket, empty brackets interleaved), then per_iteration with the pass's
// own mean empty bracket subtracted — the same arithmetic and honesty rules as --perf (nan
// when not measured or lost in the subtraction's noise, scaled and estimated when the group
// was multiplexed).
#pragma once

#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include "engine/counting/pass_math.hpp"
#include "engine/counting/read_path.hpp"
#include "engine/counting/workload.hpp"
#include "engine/model/json.hpp"
#include "os/perf_events.hpp"

namespace glint::engine::counting {

struct EventCounts {
    std::vector<double> values;  // per requested spec, per iteration; nan when not measured
    bool estimated = false;      // the pass was multiplexed (values scaled)
};

class EventCounter {
  public:
    EventCounter() = default;
    ~EventCounter() { close(); }
    EventCounter(const EventCounter&) = delete;
    EventCounter& operator=(const EventCounter&) = delete;

    // Opens what it can of `specs` (1..os::kMaxGroupEvents). True when some member opened.
    bool open(const std::vector<os::EventSpec>& specs, bool inherit);
    void close();

    bool usable() const { return group_.is_open(); }
    std::size_t requested() const { return refusals_.size(); }
    // errno the kernel refused spec i with; 0 when it counts.
    int refusal(std::size_t i) const { return refusals_[i]; }
    // The bracket's self-cost at open, in group order (members that opened).
    const BracketCost& open_cost() const { return open_cost_; }
    // Group position of spec i, or -1 when refused; all of them, in requested order.
    int position(std::size_t i) const { return positions_[i]; }
    const std::vector<int>& positions() const { return positions_; }
    // The group as opened (the members that opened), for opening its like on other threads.
    const os::GroupSpec& spec() const { return group_.spec(); }
    // The open-time bracket self-cost of spec i (requested order); nan when it was refused or
    // the cost was not measured.
    double open_cost_of(std::size_t i) const {
        if (!open_cost_.measured || positions_[i] < 0) return std::nan("");
        return open_cost_.per_bracket[static_cast<std::size_t>(positions_[i])];
    }

    // One counting pass over `work`.
    EventCounts count(const Workload& work, const PassPlan& plan);

    // What every column counted by spec i discloses in JSON meta (the event and syscall tiers):
    // "counting", "reason" when it does not count, and its open-time "bracketCost" (null when
    // not measured).
    void add_column_facts(Json& column, std::size_t i, bool counting,
                          const std::string& reason) const;

  private:
    os::PerfGroup group_;
    std::unique_ptr<ReadPath> path_;
    std::vector<int> refusals_;
    std::vector<int> positions_;
    BracketCost open_cost_;
};

}  // namespace glint::engine::counting
