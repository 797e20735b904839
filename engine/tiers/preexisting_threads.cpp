#include "engine/tiers/preexisting_threads.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>

#include <fmt/format.h>

#include "engine/tiers/tier_set.hpp"
#include "os/errors.hpp"
#include "os/process.hpp"
#include "os/process_tasks.hpp"
#include "os/read_path.hpp"

namespace glint::engine {

OtherCounts other_counts(const os::GroupDelta& delta) {
    OtherCounts out;
    out.size = delta.size;
    if (!delta.ok || (delta.enabled > 0 && delta.running == 0)) {
        out.ok = false;
        return out;
    }
    const double scale = delta.running < delta.enabled ? static_cast<double>(delta.enabled) /
                                                             static_cast<double>(delta.running)
                                                       : 1.0;
    out.estimated = delta.running < delta.enabled;
    for (std::size_t i = 0; i < delta.size; ++i)
        out.values[i] = static_cast<double>(delta.counts[i]) * scale;
    return out;
}

std::vector<catalog::MetricCell> add_other_threads(std::vector<catalog::MetricCell> cells,
                                                   const std::vector<catalog::MetricCell>& others) {
    bool idle = true;  // the other threads counted nothing at all
    for (const auto& o : others)
        if (additive(o) && o.value != 0) idle = false;
    for (std::size_t i = 0; i < cells.size() && i < others.size(); ++i) {
        catalog::MetricCell& cell = cells[i];
        if (!additive(cell)) {
            if (!idle) cell.value = catalog::kNotMeasured;
        } else {
            cell.value += others[i].value;  // nan either side stays nan
        }
        cell.estimated = cell.measured() && (cell.estimated || others[i].estimated);
    }
    return cells;
}

std::vector<double> in_spec_order(const counting::PerIteration& per,
                                  const std::vector<int>& positions) {
    std::vector<double> out(positions.size(), catalog::kNotMeasured);
    for (std::size_t i = 0; i < positions.size(); ++i)
        if (positions[i] >= 0 && static_cast<std::size_t>(positions[i]) < per.size)
            out[i] = per.values[positions[i]];
    return out;
}

Json merge_coverage(const Json& into, const Json& part) {
    if (into.is_null()) return part;
    if (part.is_null()) return into;
    // Every thread either part lists, first seen first; the missed entry of each tier that missed
    // it.
    std::vector<std::pair<Json, std::vector<const Json*>>> threads;
    const auto find = [&](const Json& t) -> std::vector<const Json*>& {
        for (auto& [seen, misses] : threads)
            if (seen.at("tid").as_number() == t.at("tid").as_number()) return misses;
        Json entry = Json::object();
        entry["tid"] = t.at("tid");
        entry["name"] = t.at("name");
        return threads.emplace_back(std::move(entry), std::vector<const Json*>{}).second;
    };
    for (const Json* whole : {&into, &part}) {
        for (const auto& t : whole->at("preExisting").as_array()) find(t);
        for (const auto& t : whole->at("preExistingMissed").as_array()) find(t).push_back(&t);
    }
    Json counted = Json::array(), missed = Json::array();
    for (auto& [entry, misses] : threads) {
        if (misses.empty()) {
            counted.push_back(std::move(entry));
            continue;
        }
        Json tiers = Json::array();
        std::vector<std::pair<std::string, std::string>> whys;  // tiers, reason
        for (const Json* m : misses) {
            std::string who;
            if (const Json* named = m->find("tiers"))
                for (const auto& tier : named->as_array()) {
                    tiers.push_back(tier);
                    who += (who.empty() ? "" : ", ") + tier.as_string();
                }
            const std::string& why = m->at("why").as_string();
            auto same = std::find_if(whys.begin(), whys.end(),
                                     [&](const auto& w) { return w.second == why; });
            if (same == whys.end()) whys.emplace_back(who, why);
            else same->first += ", " + who;
        }
        std::string why;
        for (const auto& [who, reason] : whys)
            why += (why.empty() ? "" : "; ") + (whys.size() > 1 && !who.empty() ? who + ": " : "") +
                   reason;
        entry["why"] = why;
        entry["tiers"] = std::move(tiers);
        missed.push_back(std::move(entry));
    }
    Json out = Json::object();
    out["preExisting"] = std::move(counted);
    out["preExistingMissed"] = std::move(missed);
    return out;
}

void PreexistingThreads::open(const os::GroupSpec& like, std::string tier) {
    close();
    tier_ = std::move(tier);
    const long self = os::thread_id();
    const os::TaskCensus census = os::process_tasks();
    os::GroupSpec spec = like;
    spec.inherit = true;
    spec.user_access = false;
    for (const auto& task : census.tasks) {
        if (task.tid == self) continue;
        spec.tid = task.tid;
        os::PerfGroup group;
        os::OpenFailure failure;
        PreexistingThread t{task.tid, task.name, 0, groups_.size() >= kMaxPreexisting};
        if (!t.over_limit) {
            if (group.open(spec, failure) && group.enable()) groups_.push_back(std::move(group));
            else t.error = failure.error != 0 ? failure.error : (errno != 0 ? errno : EINVAL);
        }
        threads_.push_back(std::move(t));
    }
    before_.assign(groups_.size(), os::GroupReading{});
}

void PreexistingThreads::close() {
    groups_.clear();  // each closes its fds
    threads_.clear();
    before_.clear();
}

void PreexistingThreads::begin() {
    for (std::size_t i = 0; i < groups_.size(); ++i) groups_[i].read(before_[i]);
}

counting::PerIteration PreexistingThreads::end(std::uint64_t iterations) {
    counting::PerIteration per;
    per.size = groups_.empty() ? 0 : groups_.front().size();
    std::array<double, os::kMaxGroupEvents> sum{};
    bool ok = iterations > 0;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        os::GroupReading after;
        groups_[g].read(after);
        const OtherCounts c = other_counts(os::delta_between(before_[g], after));
        ok = ok && c.ok && c.size == per.size;
        per.estimated = per.estimated || c.estimated;
        for (std::size_t i = 0; i < c.size && i < per.size; ++i) sum[i] += c.values[i];
    }
    for (std::size_t i = 0; i < per.size; ++i)
        per.values[i] = ok ? sum[i] / static_cast<double>(iterations) : catalog::kNotMeasured;
    return per;
}

Json PreexistingThreads::coverage() const {
    if (threads_.empty()) return Json();
    Json counted = Json::array(), missed = Json::array();
    for (const auto& t : threads_) {
        Json j = Json::object();
        j["tid"] = static_cast<double>(t.tid);
        j["name"] = t.name;
        if (t.error == 0 && !t.over_limit) {
            counted.push_back(std::move(j));
            continue;
        }
        j["why"] =
            t.over_limit ? fmt::format(
                               "not opened: groups are opened on {} threads at most (each costs "
                               "a file descriptor per event)",
                               kMaxPreexisting)
            : t.error == ESRCH ? "it exited before its counters could open"
                               : "its counters could not open: " + os::describe_errno(t.error);
        j["tiers"] = Json::array();
        j["tiers"].push_back(tier_);
        missed.push_back(std::move(j));
    }
    Json out = Json::object();
    out["preExisting"] = std::move(counted);
    out["preExistingMissed"] = std::move(missed);
    return out;
}

PassResult count_with_preexisting(counting::EventCounter& counter, PreexistingThreads& others,
                                  const std::vector<CounterColumn>& columns, const Workload& work,
                                  const PassPlan& plan) {
    others.begin();
    const counting::EventCounts counts = counter.count(work, plan);
    const counting::PerIteration per = others.end(plan.iterations);
    const std::vector<double> theirs = in_spec_order(per, counter.positions());
    PassResult result;
    std::vector<catalog::MetricCell> other_cells;
    for (const CounterColumn& c : columns) {
        const double mine = c.counting ? counts.values[c.position] : catalog::kNotMeasured;
        result.cells.push_back(
            catalog::make_cell(c.descriptor, mine, counts.estimated && !std::isnan(mine)));
        const double their = c.counting ? theirs[c.position] : catalog::kNotMeasured;
        other_cells.push_back(
            catalog::make_cell(c.descriptor, their, per.estimated && !std::isnan(their)));
    }
    if (others.any_counted())
        result.cells = add_other_threads(std::move(result.cells), other_cells);
    if (Json covered = others.coverage(); !covered.is_null())
        result.row_fields["threadCoverage"] = covered;
    return result;
}

}  // namespace glint::engine
