#include "engine/tiers/perf/perf_tier.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "catalog/selection.hpp"
#include "engine/tiers/perf/group_opener.hpp"
#include "engine/tiers/perf/messages.hpp"
#include "engine/tiers/perf/metrics.hpp"
#include "engine/tiers/perf/pass_math.hpp"
#include "engine/tiers/perf/pass_runner.hpp"

namespace glint::engine::perf {
namespace {

const char* kind_name(GroupKind kind) {
    switch (kind) {
        case GroupKind::hardware: return "hardware";
        case GroupKind::software: return "software";
        case GroupKind::none: return "none";
    }
    return "none";
}

std::string with_remedy(const Status& s) {
    return s.remedy.empty() ? s.reason : s.reason + " — " + s.remedy;
}

class PerfTier final : public Tier {
public:
    explicit PerfTier(PerfTierConfig config) : config_(std::move(config)) {}
    ~PerfTier() override { close(); }

    std::string_view source() const override { return "perf"; }

    bool wanted(const Options& o) const override {
        return o.perf || o.perf_scaled || o.perf_read != PerfRead::automatic ||
               catalog::selects_source(perf_family(FamilyState{}), o.metrics, "perf");
    }

    std::vector<Status> open(const Options& options) override {
        close();
        opened_ = open_counting_group(OpenRequest{options.perf_scaled, options.perf_inherit,
                                                  config_.pmu_root, config_.spin,
                                                  options.perf_read != PerfRead::syscall});
        state_ = family_state(opened_);
        statuses_ = opened_.statuses;
        if (opened_.usable()) {
            path_ = select_read_path(opened_.group, options.perf_read, statuses_);
            // --perf-read=compare: the syscall path's cost is measured over the same group and
            // shown next to the counting path's.
            if (options.perf_read == PerfRead::compare && path_->name() != "syscall") {
                compared_ = make_syscall_path(opened_.group);
                compared_cost_ = calibrate_bracket_cost(*compared_, config_.calibration_brackets);
            }
            cost_ = calibrate_bracket_cost(*path_, config_.calibration_brackets);
            if (!cost_.measured)
                statuses_.push_back({"perf.bracket-cost", Status::State::degraded,
                                     "the bracket self-cost could not be measured at open; "
                                     "nothing is subtracted",
                                     ""});
        }
        return statuses_;
    }

    std::vector<catalog::MetricDescriptor> family() const override { return perf_family(state_); }

    std::vector<std::string> header_notes() const override {
        std::vector<std::string> lines;
        if (statuses_.empty()) return lines;
        const Status& tier = statuses_.front();
        if (!tier.usable()) {
            lines.push_back("perf: unavailable, perf columns omitted: " + with_remedy(tier));
            return lines;
        }
        // A detail the headline already states (the software group's "no hardware PMU") adds
        // only its remedy, so no reason is printed twice.
        std::string headline = "perf: " + tier.reason;
        std::vector<std::string> details;
        for (std::size_t i = 1; i < statuses_.size(); ++i) {
            if (tier.reason.find(statuses_[i].reason) == std::string::npos)
                details.push_back("perf: " + with_remedy(statuses_[i]));
            else if (!statuses_[i].remedy.empty())
                headline += " — " + statuses_[i].remedy;
        }
        lines.push_back(std::move(headline));
        lines.insert(lines.end(), details.begin(), details.end());
        if (opened_.inherit) lines.push_back("perf: " + scope_note(true));
        if (path_)
            lines.push_back("perf: read path " + path_->describe() + "; " + cost_line(cost_, true));
        if (compared_)
            lines.push_back("perf: compared read path " + compared_->describe() + " (not used "
                            "for counting); " + cost_line(compared_cost_, false));
        return lines;
    }

    Json meta() const override {
        Json m = Json::object();
        const Status tier = statuses_.empty() ? Status{"perf", Status::State::unavailable,
                                                       "not opened", ""}
                                              : statuses_.front();
        m["status"] = to_string(tier.state);
        m["reason"] = tier.reason;
        if (!tier.remedy.empty()) m["remedy"] = tier.remedy;
        m["group"] = kind_name(opened_.kind);
        Json events = Json::array();
        for (os::Event e : state_.members) events.push_back(os::event_name(e));
        m["events"] = std::move(events);
        m["excludeKernel"] = opened_.user_only;
        m["inherit"] = opened_.inherit;
        m["scope"] = scope_note(opened_.inherit);
        m["llcDropped"] = opened_.llc_dropped;
        m["scaled"] = opened_.scaled;
        m["multiplexedAtOpen"] = opened_.multiplexed;
        m["openRatio"] = opened_.usable() ? Json(opened_.open_ratio) : Json();
        Json disclosures = Json::array();
        for (std::size_t i = 1; i < statuses_.size(); ++i) {
            Json d = Json::object();
            d["capability"] = statuses_[i].capability;
            d["state"] = to_string(statuses_[i].state);
            d["reason"] = statuses_[i].reason;
            if (!statuses_[i].remedy.empty()) d["remedy"] = statuses_[i].remedy;
            disclosures.push_back(std::move(d));
        }
        m["disclosures"] = std::move(disclosures);
        if (path_) {
            m["readPath"] = path_->name();
            Json paths = Json::object();
            paths[path_->name()] = cost_json(cost_, true);
            if (compared_) paths[compared_->name()] = cost_json(compared_cost_, false);
            m["bracketCost"] = std::move(paths);
        }
        return m;
    }

    PassResult count(const Workload& work, const PassPlan& plan) override {
        PassOutcome pass;
        if (path_)
            pass = run_pass(*path_, work, plan);
        else
            pass.totals.ok = false;  // count() without a usable open(): nothing measured
        // The interleaved empty brackets could not be read: fall back to the open-time cost.
        const BracketCost& cost = pass.cost.measured ? pass.cost : cost_;
        return PassResult{perf_cells(state_, per_iteration(pass.totals, plan.iterations, cost))};
    }

    void close() override {
        compared_.reset();
        path_.reset();
        opened_.group.close();
    }

private:
    // One path's bracket cost for the header; `counting`: the path passes subtract with.
    std::string cost_line(const BracketCost& cost, bool counting) const {
        if (!cost.measured) return "bracket self-cost not measured, nothing subtracted";
        std::string parts;
        for (std::size_t i = 0; i < state_.members.size(); ++i) {
            if (!parts.empty()) parts += ", ";
            parts += fmt::format("{} {:.0f}{}", os::event_name(state_.members[i]),
                                 cost.per_bracket[i],
                                 state_.members[i] == os::Event::task_clock ? " ns" : "");
            if (cost.uncertainty[i] > 0) parts += fmt::format(" ±{:.1f}", cost.uncertainty[i]);
        }
        std::string line = fmt::format("bracket self-cost at open (median of {} empty brackets): {}",
                                       cost.samples, parts);
        if (counting)
            line += fmt::format("; each pass subtracts the mean of empty brackets interleaved in "
                                "it (one per {} brackets, at least {}), and a value within 3 "
                                "standard errors of that subtraction renders —",
                                kEmptyEvery, kMinPassEmpties);
        return line;
    }

    Json cost_json(const BracketCost& cost, bool counting) const {
        Json j = Json::object();
        j["method"] = counting ? "median of empty-body brackets at open; each pass subtracts the "
                                 "mean of empty brackets interleaved in it"
                               : "median of empty-body brackets at open (compared, not used for "
                                 "counting)";
        j["samples"] = static_cast<unsigned long>(cost.samples);
        Json per = Json::object();
        Json uncertainty = Json::object();
        for (std::size_t i = 0; i < state_.members.size(); ++i) {
            const std::string_view name = os::event_name(state_.members[i]);
            per[name] = cost.measured ? Json(cost.per_bracket[i]) : Json();
            uncertainty[name] = cost.measured ? Json(cost.uncertainty[i]) : Json();
        }
        j["perBracket"] = std::move(per);
        j["uncertainty"] = std::move(uncertainty);
        return j;
    }

    PerfTierConfig config_;
    OpenedGroup opened_;
    FamilyState state_;
    std::vector<Status> statuses_;
    std::unique_ptr<ReadPath> path_;
    BracketCost cost_;
    std::unique_ptr<ReadPath> compared_;  // --perf-read=compare: calibrated, never counts
    BracketCost compared_cost_;
};

}  // namespace

std::unique_ptr<Tier> make_perf_tier(PerfTierConfig config) {
    return std::make_unique<PerfTier>(std::move(config));
}

}  // namespace glint::engine::perf

namespace glint::engine {

std::unique_ptr<Tier> make_perf_tier() { return perf::make_perf_tier(perf::PerfTierConfig{}); }

}  // namespace glint::engine
