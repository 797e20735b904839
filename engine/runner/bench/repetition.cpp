#include "engine/runner/bench/repetition.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/stats/summary.hpp"

namespace glint::engine {
namespace {

std::string key_of(const Row& row) { return identity_key(row.registration, row.name, row.labels); }

}  // namespace

TimingSummary merge_repetitions(const std::vector<TimingSummary>& repetitions) {
    TimingSummary merged = repetitions.back();
    if (repetitions.size() == 1) return merged;
    merged.sample_ns.clear();
    merged.unit_sample_ns.clear();
    merged.repetition_median_ns.clear();
    merged.resolution_ns = 0;
    std::vector<double> per_unit;    // the repetitions' time in units of their own unit
    std::vector<double> core_steps;  // the repetitions' core speed, where probed
    for (const auto& r : repetitions) {
        if (std::isfinite(r.core_step_ns)) core_steps.push_back(r.core_step_ns);
        merged.sample_ns.insert(merged.sample_ns.end(), r.sample_ns.begin(), r.sample_ns.end());
        merged.unit_sample_ns.insert(merged.unit_sample_ns.end(), r.unit_sample_ns.begin(),
                                     r.unit_sample_ns.end());
        if (std::isfinite(r.per_unit)) per_unit.push_back(r.per_unit);
        merged.repetition_median_ns.push_back(r.median_ns);
        merged.resolution_ns = std::max(merged.resolution_ns, r.resolution_ns);
    }
    const Summary pool = summarize(merged.sample_ns);
    merged.samples = merged.sample_ns.size();
    merged.median_ns = median(merged.repetition_median_ns);
    merged.per_unit = median(per_unit);        // NaN when none
    merged.core_step_ns = median(core_steps);  // NaN when none was probed
    merged.mad_ns = pool.mad;
    merged.min_ns = pool.min;
    merged.max_ns = pool.max;
    // The headline across repetitions (docs/load.md): clean/disturbed summed, the widest ±
    // or the repetition medians' range, whichever is larger; a disturbed or split one marks it.
    const auto [lo, hi] =
        std::minmax_element(merged.repetition_median_ns.begin(), merged.repetition_median_ns.end());
    merged.spread_ns = *hi - *lo;
    merged.clean_samples.reset();
    merged.disturbed_samples.reset();
    merged.slow_core_samples.reset();
    for (const auto& r : repetitions) {
        merged.spread_ns = std::max(merged.spread_ns, r.printed_spread_ns());
        if (r.clean_samples)
            merged.clean_samples = merged.clean_samples.value_or(0) + *r.clean_samples;
        if (r.disturbed_samples)
            merged.disturbed_samples = merged.disturbed_samples.value_or(0) + *r.disturbed_samples;
        if (r.slow_core_samples)
            merged.slow_core_samples = merged.slow_core_samples.value_or(0) + *r.slow_core_samples;
        if (r.estimator == "all-median") merged.estimator = r.estimator;
        merged.split = merged.split || r.split;
        merged.retaken = merged.retaken || r.retaken;
    }
    return merged;
}

void Repetitions::begin(std::uint64_t index) {
    current_ = index;
    if (count_ > 1)
        std::fprintf(stderr, "glint: --bench-repeat: repetition %llu of %llu%s\n",
                     static_cast<unsigned long long>(index),
                     static_cast<unsigned long long>(count_),
                     index == count_ ? "" : " (the table follows the last)");
}

void Repetitions::keep(const std::vector<Row>& rows) {
    if (current_ == 1) first_rows_ = rows;
    for (const Row& row : rows) {
        const std::string key = key_of(row);
        if (row.error) {
            errors_.emplace(key, "repetition " + std::to_string(current_) + ": " + *row.error);
        } else if (row.timing) {
            timings_[key].push_back(*row.timing);
        }
    }
}

std::uint64_t Repetitions::pinned_iterations(const Row& row) const {
    const auto it = timings_.find(key_of(row));
    if (it == timings_.end() || it->second.front().per_call) return 0;
    return it->second.front().iterations_per_sample;
}

void Repetitions::merge(Row& row) const {
    const std::string key = key_of(row);
    if (const auto e = errors_.find(key); e != errors_.end()) {
        row.error = e->second;
        row.timing.reset();
        return;
    }
    if (!row.timing) return;
    std::vector<TimingSummary> all;
    if (const auto it = timings_.find(key); it != timings_.end()) all = it->second;
    all.push_back(*row.timing);
    row.timing = merge_repetitions(all);
}

std::vector<Row> Repetitions::partial_rows(const std::vector<Row>& current,
                                           const std::vector<Row>& complete) const {
    Repetitions done = *this;
    if (!last()) done.keep(current);  // the interrupted repetition's finished rows count
    std::vector<Row> partial;
    for (const Row& first : current_ == 1 ? current : first_rows_) {
        const std::string key = key_of(first);
        if (std::any_of(complete.begin(), complete.end(),
                        [&](const Row& r) { return key_of(r) == key; }))
            continue;
        Row row = first;
        std::size_t finished = 0;
        if (const auto e = done.errors_.find(key); e != done.errors_.end()) {
            row.error = e->second;
            row.timing.reset();
        }
        if (const auto t = done.timings_.find(key); t != done.timings_.end()) {
            finished = t->second.size();
            if (!row.error) row.timing = merge_repetitions(t->second);
        }
        if (row.error) ++finished;
        Json mark = Json::object();
        mark["done"] = static_cast<unsigned long>(finished);
        mark["of"] = static_cast<unsigned long>(count_);
        row.extra_fields["partialRepetitions"] = std::move(mark);
        partial.push_back(std::move(row));
    }
    return partial;
}

}  // namespace glint::engine
