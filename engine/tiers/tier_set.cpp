#include "engine/tiers/tier_set.hpp"

#include <algorithm>
#include <cmath>

#include "catalog/selection.hpp"
#include "engine/tiers/pass_plan.hpp"
#include "engine/tiers/preexisting_threads.hpp"
#include "engine/timing/windows.hpp"

namespace glint::engine {
namespace {

// The median of `values`; nan when any is nan (a cell one pass did not measure) or none.
double median_or_nan(std::vector<double> values) {
    if (values.empty()) return catalog::kNotMeasured;
    for (const double v : values)
        if (std::isnan(v)) return catalog::kNotMeasured;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace

void TierSet::open(const TierRequest& request, std::vector<std::unique_ptr<Tier>> all) {
    close();
    sizing_ = request.sizing;
    request_ = request;
    at_open_ = threads_now();  // the counters open below: these threads are outside every count
    std::vector<catalog::MetricDescriptor> unopened;
    for (const auto& t : all) {
        auto f = t->family();
        unopened.insert(unopened.end(), f.begin(), f.end());
    }
    for (auto& t : all) {
        const bool want =
            request.every_tier || t->wanted(request) ||
            catalog::selects_source(unopened, request.metrics, std::string(t->source()));
        if (!want) {
            // Listed (--list-metrics) but never a visible column: the tier was not asked for.
            for (auto d : t->family()) {
                d.is_default = false;
                catalog_.push_back(std::move(d));
            }
            continue;
        }
        const std::vector<Status> st = t->open(request);
        statuses_.insert(statuses_.end(), st.begin(), st.end());
        auto f = t->family();
        catalog_.insert(catalog_.end(), f.begin(), f.end());
        if (!st.empty() && st.front().usable()) {
            if (CountingTier* c = t->counting()) counting_.push_back(c);
            if (RunExtension* e = t->extension()) extensions_.push_back(e);
            open_.push_back(std::move(t));
        } else if (!st.empty()) refusals_.push_back(st.front());
    }
    selection_ = request.metrics;
    if (!selection_.empty())
        for (const auto* e : extensions_)
            for (auto& name : e->kept_columns(request)) selection_.push_back(std::move(name));
}

std::vector<std::string> TierSet::header_notes() const {
    std::vector<std::string> notes;
    for (const auto& t : open_)
        for (auto& n : t->header_notes()) notes.push_back(std::move(n));
    return notes;
}

Json TierSet::meta() const {
    Json tiers = Json::object();
    for (const auto& t : open_) tiers[t->source()] = t->meta();
    return tiers;
}

CountedCase TierSet::count(std::string_view name, std::string_view shown, const Workload& work,
                           const TimingSummary& timing,
                           const std::function<void()>& progress) const {
    CountedCase counted;
    for (auto* e : extensions_) e->begin_case(name, shown);
    const auto next_plan = [&] {
        if (progress) progress();
        PassPlan plan = plan_pass(timing, sizing_);
        // A batch with inputs brackets one window of them at a time, sized as the timing
        // pass sized its windows.
        if (work.batched() && has_inputs(work.batch))
            plan.batch = window_for(work.batch, timing.median_ns, plan.batch);
        return plan;
    };
    std::optional<EscapedWork> others;  // work the counting passes may have missed
    if (!counting_.empty()) others.emplace(at_open_, request_.perf.inherit);
    for (auto* tier : counting_) {
        const PassPlan plan = next_plan();
        PassResult pass = tier->count(work, plan);
        counted.cells.insert(counted.cells.end(), pass.cells.begin(), pass.cells.end());
        counted.count_iterations = plan.iterations;
        for (auto& [key, value] : pass.row_fields.as_object()) {  // objects merge (countSpread)
            Json& into = counted.row_fields[key];
            if (key ==
                "threadCoverage")  // each tier's pre-existing threads: one list, per-tier misses
                into = merge_coverage(into, value);
            else if (into.is_object() && value.is_object())
                for (auto& [k, v] : value.as_object()) into[k] = v;
            else into = value;
        }
    }
    if (others) {  // the tiers' part (the pre-existing threads they counted, under inherit) joins
                   // it
        Json preexisting;
        if (const Json* said = counted.row_fields.find("threadCoverage")) preexisting = *said;
        std::erase_if(counted.row_fields.as_object(),
                      [](const auto& field) { return field.first == "threadCoverage"; });
        if (Json coverage = others->coverage(preexisting); !coverage.is_null())
            counted.row_fields["threadCoverage"] = coverage;
    }
    for (auto* e : extensions_) {
        if (!e->has_pass()) continue;
        Json fields = e->pass(work, next_plan());
        for (auto& [key, value] : fields.as_object()) counted.row_fields[key] = value;
    }
    return counted;
}

CountedCase TierSet::count_difference(const Workload& work, const TimingSummary& timing,
                                      const std::function<void()>& progress) const {
    const std::uint64_t span_calls = std::max<std::uint64_t>(work.batch.span, 1);
    const auto span = static_cast<double>(span_calls);
    TimingSummary per_call = timing;  // the passes count calls of run() and reference()
    per_call.iterations_per_sample =
        std::max<std::uint64_t>(1, timing.iterations_per_sample / span_calls);
    per_call.median_ns = timing.median_ns * span;
    Workload longer = work, shorter = work;
    longer.batch.reference = shorter.batch.reference = nullptr;
    shorter.batch.run = work.batch.reference;
    CountedCase counted;
    for (auto* tier : counting_) {
        const PassPlan plan = plan_pass(per_call, sizing_);
        // kDifferencePairs pairs of passes, longer and shorter alternating; each cell is the
        // median of the pairs' differences, so an interrupt in one pass cannot move it.
        std::vector<std::vector<double>> differences;
        std::vector<catalog::MetricCell> cells;
        for (int pair = 0; pair < kDifferencePairs; ++pair) {
            if (progress) progress();
            const PassResult a = tier->count(longer, plan);
            if (progress) progress();
            const PassResult b = tier->count(shorter, plan);
            if (cells.empty()) {
                cells = a.cells;
                differences.resize(cells.size());
            }
            for (std::size_t i = 0; i < cells.size() && i < a.cells.size(); ++i) {
                differences[i].push_back(i < b.cells.size()
                                             ? (a.cells[i].value - b.cells[i].value) / span
                                             : catalog::kNotMeasured);
                cells[i].estimated = cells[i].estimated || a.cells[i].estimated ||
                                     (i < b.cells.size() && b.cells[i].estimated);
            }
        }
        for (std::size_t i = 0; i < cells.size(); ++i) {
            cells[i].value =
                additive(cells[i]) ? median_or_nan(differences[i]) : catalog::kNotMeasured;
            counted.cells.push_back(std::move(cells[i]));
        }
        counted.count_iterations = plan.iterations;
    }
    if (!open_.empty()) counted.row_fields["counters"] = kCountedByDifference;
    return counted;
}

std::vector<std::string> TierSet::after_table() const {
    std::vector<std::string> lines;
    for (auto* e : extensions_)
        for (auto& l : e->after_table()) lines.push_back(std::move(l));
    return lines;
}

std::vector<std::string> TierSet::trailer() const {
    std::vector<std::string> lines;
    for (const auto* e : extensions_)
        for (auto& l : e->trailer()) lines.push_back(std::move(l));
    return lines;
}

bool TierSet::output_failed() const {
    for (const auto* e : extensions_)
        if (e->output_failed()) return true;
    return false;
}

std::string TierSet::row_html(const Row& row) const {
    std::string html;
    for (const auto* e : extensions_) html += e->row_html(row);
    return html;
}

Json TierSet::hand_back() const {
    Json handed = Json::object();
    for (const auto& t : open_)
        if (RunExtension* e = t->extension())
            if (Json j = e->hand_back(); !j.is_null())
                handed[std::string(t->source())] = std::move(j);
    return handed;
}

void TierSet::take_from_child(const Json& handed) const {
    if (!handed.is_object()) return;
    for (const auto& t : open_)
        if (RunExtension* e = t->extension())
            if (const Json* j = handed.find(std::string(t->source()))) e->take_from_child(*j);
}

void TierSet::close() {
    for (auto& t : open_) t->close();
    counting_.clear();
    extensions_.clear();
    open_.clear();
    catalog_.clear();
    statuses_.clear();
    refusals_.clear();
    selection_.clear();
}

}  // namespace glint::engine
