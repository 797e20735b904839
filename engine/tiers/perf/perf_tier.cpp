#include "engine/tiers/perf/perf_tier.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "engine/counting/batch_math.hpp"
#include "engine/counting/group_opener.hpp"
#include "engine/counting/messages.hpp"
#include "engine/counting/pass_math.hpp"
#include "engine/counting/pass_runner.hpp"
#include "engine/tiers/perf/compare_metrics.hpp"
#include "engine/tiers/perf/metrics.hpp"
#include "engine/tiers/preexisting_threads.hpp"

namespace glint::engine::perf {

using namespace counting;  // the layer this tier stands on
namespace {

const char* kind_name(GroupKind kind) {
    switch (kind) {
        case GroupKind::hardware:
            return "hardware";
        case GroupKind::software:
            return "software";
        case GroupKind::none:
            return "none";
    }
    return "none";
}

// The PathCost of one path as JSON meta.bracketCost.<path>.
Json cost_json(const PathCost& cost, const std::vector<os::Event>& members) {
    Json j = Json::object();
    j["method"] =
        "median of empty-body brackets at open; each pass subtracts the mean of empty "
        "brackets interleaved in it";
    j["samples"] = static_cast<unsigned long>(cost.counts.samples);
    Json per = Json::object();
    Json uncertainty = Json::object();
    for (std::size_t i = 0; i < members.size(); ++i) {
        const std::string_view name = os::event_name(members[i]);
        per[name] = cost.counts.measured ? Json(cost.counts.per_bracket[i]) : Json();
        uncertainty[name] = cost.counts.measured ? Json(cost.counts.uncertainty[i]) : Json();
    }
    j["perBracket"] = std::move(per);
    j["uncertainty"] = std::move(uncertainty);
    j["cycles"] = cost.cycles;       // nan (no cycles member) prints null
    j["wallNs"] = cost.wall_ns;      // one whole bracket() call
    j["windowNs"] = cost.window_ns;  // first to last counter read, when the path times it
    j["clock"] = cost.clock;
    return j;
}

// "bracket self-cost cycles 180 ±0.5, instructions 95, others 0 (median of 31 at open; one call
// 4607 ns, its counting window 40 ns), subtracted per pass: ..." (members that cost nothing are
// "others 0"; the method in full: meta.perf.bracketCost.<path>.method).
std::string cost_line(const PathCost& cost, const std::vector<os::Event>& members) {
    const BracketCost& c = cost.counts;
    if (!c.measured) return "bracket self-cost not measured, nothing subtracted";
    std::string parts;
    bool zeros = false;
    for (std::size_t i = 0; i < members.size(); ++i) {
        if (c.per_bracket[i] == 0 && c.uncertainty[i] == 0) {
            zeros = true;
            continue;
        }
        if (!parts.empty()) parts += ", ";
        parts += fmt::format("{} {:.0f}{}", os::event_name(members[i]), c.per_bracket[i],
                             members[i] == os::Event::task_clock ? " ns" : "");
        if (c.uncertainty[i] > 0) parts += fmt::format(" ±{:.1f}", c.uncertainty[i]);
    }
    if (zeros) parts += parts.empty() ? "0" : ", others 0";
    std::string how = fmt::format("median of {} at open", c.samples);
    if (!std::isnan(cost.wall_ns)) how += fmt::format("; one call {:.0f} ns", cost.wall_ns);
    if (!std::isnan(cost.window_ns))
        how += fmt::format(", its counting window {:.0f} ns", cost.window_ns);
    return fmt::format(
        "bracket self-cost {} ({}), subtracted per pass: a value within 3 standard "
        "errors of it renders —",
        parts, how);
}

// meta.perf.scope and, under --perf-inherit, the header's line: inherit, and the groups on the
// threads alive at the open (preexisting_threads.hpp).
std::string perf_scope(bool inherit) { return scope_note(inherit); }

PathPass path_pass(const PassOutcome& pass, const BracketCost& cost, std::uint64_t iterations) {
    PathPass p;
    p.ran = true;
    p.cost = cost;
    p.per_iteration = per_iteration(pass.totals, iterations, cost);
    return p;
}

class PerfTier final : public CountingTier {
  public:
    // A twin (one thread of a glint::threads row) counts its own thread only.
    explicit PerfTier(PerfTierConfig config, bool twin = false)
        : config_(std::move(config)), twin_(twin) {}
    ~PerfTier() override { close(); }

    std::string_view source() const override { return "perf"; }

    bool wanted(const TierRequest& request) const override { return request.perf.asked; }

    std::unique_ptr<CountingTier> thread_twin() const override {
        return std::make_unique<PerfTier>(config_, true);
    }

    std::vector<Status> open(const TierRequest& request) override {
        const PerfRequest& options = request.perf;
        close();
        // The group asks for user access (GroupSpec::user_access) unless --perf-read=syscall:
        // arm64 needs that opt-in per event; elsewhere it changes nothing.
        opened_ = open_counting_group(OpenRequest{options.scaled, options.inherit, config_.pmu_root,
                                                  config_.spin, options.read != PerfRead::syscall});
        state_ = family_state(opened_);
        statuses_ = opened_.statuses;
        read_ = options.read;
        compare_ = CompareState{options.read == PerfRead::compare, false, ""};
        if (opened_.usable()) {
            paths_ = select_read_path(opened_.group, options.read, statuses_, config_.offer);
            compare_ = CompareState{paths_.compare, paths_.user_offered, paths_.user.reason};
            cost_ = calibrate_path(*paths_.primary, state_.members, config_.calibration_brackets);
            if (paths_.compared)
                compared_cost_ =
                    calibrate_path(*paths_.compared, state_.members, config_.calibration_brackets);
            // Inherit follows the threads started after the open: count those already there too.
            if (options.inherit && !twin_) others_.open(opened_.group.spec());
            if (!cost_.counts.measured)
                statuses_.push_back({"perf.bracket-cost", Status::State::degraded,
                                     "the bracket self-cost could not be measured at open; "
                                     "nothing is subtracted",
                                     ""});
        }
        return statuses_;
    }

    std::vector<catalog::MetricDescriptor> family() const override {
        auto family = perf_family(state_);
        auto compare = compare_family(state_, compare_);
        family.insert(family.end(), compare.begin(), compare.end());
        return family;
    }

    // The tier's lines in the run header, each one fact. Without a hardware PMU: one line for
    // the fallback, one for its remedy; what only follows from it (the user-space read path
    // needs hardware counters) is left to --capabilities and JSON meta.
    std::vector<std::string> header_notes() const override {
        std::vector<std::string> lines;
        if (statuses_.empty()) return lines;
        const Status& tier = statuses_.front();
        if (!tier.usable()) {
            lines.push_back("perf: unavailable, perf columns omitted: " + with_remedy(tier));
            return lines;
        }
        const bool software = opened_.kind == GroupKind::software;
        std::string headline =
            "perf: " +
            (software ? software_fallback_note(opened_.hardware_absent_gist, state_.members,
                                               opened_.user_only ? "user-only" : "kernel+user")
                      : tier.reason);
        std::vector<std::string> details;
        for (std::size_t i = 1; i < statuses_.size(); ++i) {
            const Status& s = statuses_[i];
            if (software && s.capability == "perf.hardware-events") {
                if (!s.remedy.empty()) details.insert(details.begin(), "perf: remedy: " + s.remedy);
            } else if (software && s.capability == "perf.read-path" &&
                       read_ == PerfRead::automatic) {
                continue;  // the user-space path reads hardware counters: implied
            } else if (tier.reason.find(s.reason) == std::string::npos) {
                details.push_back("perf: " + with_remedy(s));
            } else if (!s.remedy.empty()) {
                headline += " — " + s.remedy;  // a reason the headline already states
            }
        }
        lines.push_back(std::move(headline));
        lines.insert(lines.end(), details.begin(), details.end());
        if (opened_.inherit) lines.push_back("perf: " + perf_scope(true));
        if (!paths_.primary) return lines;
        if (!software || read_ != PerfRead::automatic)  // facts of the path a request named
            for (const auto& fact : paths_.user.facts) lines.push_back("perf: " + fact);
        lines.push_back("perf: read path " + paths_.primary->describe() + "; " +
                        cost_line(cost_, state_.members));
        if (paths_.compared)
            lines.push_back("perf: compared with " + paths_.compared->describe() + "; " +
                            cost_line(compared_cost_, state_.members));
        return lines;
    }

    Json meta() const override {
        Json m = status_meta(statuses_);
        m["group"] = kind_name(opened_.kind);
        Json events = Json::array();
        for (os::Event e : state_.members) events.push_back(os::event_name(e));
        m["events"] = std::move(events);
        m["excludeKernel"] = opened_.user_only;
        m["inherit"] = opened_.inherit;
        m["scope"] = perf_scope(opened_.inherit);
        m["llcDropped"] = opened_.llc_dropped;
        m["scaled"] = opened_.scaled;
        m["multiplexedAtOpen"] = opened_.multiplexed;
        m["openRatio"] = opened_.usable() ? Json(opened_.open_ratio) : Json();
        Json disclosures = Json::array();
        for (std::size_t i = 1; i < statuses_.size(); ++i)
            disclosures.push_back(status_json(statuses_[i]));
        m["disclosures"] = std::move(disclosures);
        if (paths_.primary) {
            m["readPath"] = paths_.primary->name();
            if (paths_.compare) m["compare"] = true;
            Json user = meta_json(paths_.user);
            user["path"] = paths_.user.name;
            user["counts"] = paths_.user_offered;
            if (!paths_.user_offered && !paths_.user.reason.empty()) {
                user["state"] = to_string(state_of(paths_.user));
                user["reason"] = paths_.user.reason;
                if (!paths_.user.remedy.empty()) user["remedy"] = paths_.user.remedy;
            }
            m["userRead"] = std::move(user);
            Json costs = Json::object();
            Json details = Json::object();
            costs[paths_.primary->name()] = cost_json(cost_, state_.members);
            details[paths_.primary->name()] = meta_json(*paths_.primary);
            if (paths_.compared) {
                costs[paths_.compared->name()] = cost_json(compared_cost_, state_.members);
                details[paths_.compared->name()] = meta_json(*paths_.compared);
            }
            m["bracketCost"] = std::move(costs);
            m["readPaths"] = std::move(details);
        }
        return m;
    }

    PassResult count(const Workload& work, const PassPlan& plan) override {
        PassOutcome pass;
        others_.begin();  // the threads that existed before the open, read around the pass
        if (paths_.primary) pass = run_pass(*paths_.primary, work, plan);
        else pass.totals.ok = false;  // count() without a usable open(): nothing measured
        const PerIteration others = others_.end(plan.iterations);
        // The interleaved empty brackets could not be read: fall back to the open-time cost.
        const BracketCost& cost = pass.cost.measured ? pass.cost : cost_.counts;
        const CombinedPass combined = combine(pass, plan.iterations, cost_.counts);
        PassResult result{perf_cells(state_, combined.per)};
        if (others_.any_counted())
            result.cells = add_other_threads(std::move(result.cells), perf_cells(state_, others));
        if (Json covered = others_.coverage(); !covered.is_null())
            result.row_fields["threadCoverage"] = covered;
        std::vector<std::string> names;
        for (os::Event e : state_.members) names.emplace_back(os::event_name(e));
        if (paths_.primary)
            result.row_fields["countSpread"]["perf"] = spread_json(combined.spread, names);
        if (!compare_.requested || !paths_.primary) return result;
        // Compare mode: the same case through the other path, in its own pass.
        PathPass primary = path_pass(pass, cost, plan.iterations);
        primary.per_iteration = combined.per;  // the perf columns' own figures
        PathPass other;
        if (paths_.compared) {
            const PassOutcome second = run_pass(*paths_.compared, work, plan);
            other = path_pass(second, second.cost.measured ? second.cost : compared_cost_.counts,
                              plan.iterations);
            other.per_iteration = combine(second, plan.iterations, compared_cost_.counts).per;
        }
        const auto cells = paths_.user_offered
                               ? compare_cells(state_, compare_, primary, other)
                               : compare_cells(state_, compare_, PathPass{}, primary);
        result.cells.insert(result.cells.end(), cells.begin(), cells.end());
        return result;
    }

    void close() override {
        paths_ = ReadPathSelection{};
        others_.close();
        opened_.group.close();
    }

  private:
    PerfTierConfig config_;
    bool twin_ = false;
    OpenedGroup opened_;
    PreexistingThreads others_;  // under --perf-inherit: the threads alive at the open
    FamilyState state_;
    std::vector<Status> statuses_;
    ReadPathSelection paths_;
    CompareState compare_;
    PerfRead read_ = PerfRead::automatic;  // --perf-read
    PathCost cost_;                        // the primary path's, at open
    PathCost compared_cost_;               // compare mode: the syscall path's, at open
};

}  // namespace

std::unique_ptr<CountingTier> make_perf_tier(PerfTierConfig config) {
    return std::make_unique<PerfTier>(std::move(config));
}

}  // namespace glint::engine::perf

namespace glint::engine {

std::unique_ptr<CountingTier> make_perf_tier() {
    return perf::make_perf_tier(perf::PerfTierConfig{});
}

}  // namespace glint::engine
