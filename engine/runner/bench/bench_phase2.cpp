// BenchRun's phase 2 (bench_run.hpp): the tables of the deferred cases, one per registration
// or, with --group-by, per label group with the rows phase 1 held.
#include <algorithm>
#include <cstdio>

#include "engine/model/sanitize.hpp"
#include "engine/runner/bench/bench_run.hpp"
#include "engine/runner/bench/grouping.hpp"

namespace glint::engine {
namespace {

const Registration* registration_named(const std::string& name) {
    for (const auto& r : registrations())
        if (r.name == name) return &r;
    return nullptr;
}

}  // namespace

void BenchRun::run_phase2() {
    body_ = {};
    std::vector<DeferredCase*> chosen;
    for (auto& d : deferred_) {
        if (filter_.selects(case_path(d.registration, d.info.name), d.registration,
                            sorted_labels(d.info.labels)))
            chosen.push_back(&d);
    }
    if (chosen.empty() && held_.empty()) return;
    // The members: the rows phase 1 held (--group-by only), then the chosen bench_cases.
    const std::size_t held = held_.size();
    std::vector<Labels> sorted;
    sorted.reserve(held + chosen.size());
    for (const Row& r : held_) sorted.push_back(sorted_labels(r.labels));
    for (auto* d : chosen) sorted.push_back(sorted_labels(d->info.labels));
    std::vector<const Labels*> labels;
    for (const auto& l : sorted) labels.push_back(&l);
    const std::vector<std::string> keys = group_keys(labels);
    const auto name_of = [&](std::size_t i) {
        return i < held ? grouped_name(held_[i].registration, held_[i].name, sorted[i], keys)
                        : grouped_name(chosen[i - held]->registration, chosen[i - held]->info.name,
                                       sorted[i], keys);
    };
    // Without --group-by keys (=all over rows without labels: the held rows first, as a table
    // of their own), one table per registration (each with its own client columns), titled
    // with the registration's name when there is more than one.
    std::vector<GroupIndex> groups;
    if (keys.empty()) {
        show_held_rows("");
        std::vector<std::string> registrations;
        for (const auto* d : chosen) registrations.push_back(d->registration);
        groups = group_by_value(registrations);
        for (auto& g : groups)
            for (auto& i : g.members) i += held;  // members index held rows, then chosen
    } else {
        groups = group_rows(labels, keys);
    }
    for (const auto& group : groups) {
        print_pending_header();
        MetricLists members;
        std::vector<const Row*> held_members;
        GroupInfo info;
        for (std::size_t i : group.members) {
            if (i < held) held_members.push_back(&held_[i]);
            else members.push_back(&chosen[i - held]->info.metrics);
            info.expected_names.push_back(name_of(i));
        }
        if (!keys.empty()) info.title = group_title(sorted[group.members.front()], keys);
        else if (groups.size() > 1) info.title = group.value;
        info.columns = visible_columns(members, held_members);
        table_.begin_group(info);
        for (std::size_t i : group.members) {
            if (i < held) {  // measured in phase 1: shown now
                Row shown = held_[i];
                shown.name = name_of(i);
                table_.case_finished(shown);
                held_shown_[i] = true;
                continue;
            }
            DeferredCase& d = *chosen[i - held];
            phase2_registration_ = d.source ? d.source : registration_named(d.registration);
            if (host_) host_->run_case(*this, catalog_, d, name_of(i));
            else measure_deferred(d, sorted[i], name_of(i));
            phase2_registration_ = nullptr;
            checkpoint();
        }
        end_table();
    }
}

std::vector<std::string> BenchRun::group_keys(const std::vector<const Labels*>& labels) const {
    if (measuring_.group_by_all) return label_keys(labels);
    std::string list;
    for (const auto& o : label_keys(labels))
        list += (list.empty() ? "" : ", ") + sanitize::terminal(o);
    for (const auto& k : missing_keys(labels, measuring_.group_by))
        if (repetitions_.last())
            std::fprintf(
                stderr,
                "glint: warning: --group-by key '%s' matches no label (the run offers: %s)\n",
                sanitize::terminal(k).c_str(), list.empty() ? "no labels" : list.c_str());
    return measuring_.group_by;
}

void BenchRun::show_held_rows(const std::string& title) {
    GroupInfo info;
    info.title = title;
    std::vector<Row> rows;
    for (std::size_t i = 0; i < held_.size(); ++i) {
        if (held_shown_[i]) continue;
        rows.push_back(held_[i]);
        rows.back().name =
            display_name(held_[i].registration, held_[i].name, sorted_labels(held_[i].labels));
        info.expected_names.push_back(rows.back().name);
    }
    if (rows.empty()) return;
    std::vector<const Row*> shown;
    for (const Row& row : rows) shown.push_back(&row);
    info.columns = visible_columns({}, shown);
    table_.begin_group(info);
    for (const Row& row : rows) table_.case_finished(row);
    held_shown_.assign(held_.size(), true);
    end_table();
}

}  // namespace glint::engine
