// TierSet::count_threads: the counting passes of a multi-threaded case (tier_set.hpp).
#include <algorithm>
#include <barrier>
#include <cmath>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/threads/thread_team.hpp"
#include "engine/tiers/pass_plan.hpp"
#include "engine/tiers/tier_set.hpp"

namespace glint::engine {
namespace {

// One tier's pass on every thread of a team: each thread opens its own twin (one at a time:
// opening touches process-wide caches), all wait at the barrier, then each counts itself.
struct ThreadPass {
    const CountingTier& tier;
    const TierRequest& request;
    const Workload& one;
    PassPlan plan;
    std::barrier<> start;
    std::mutex opening;
    std::vector<std::optional<PassResult>> results;  // by thread; empty: the twin did not open
    std::vector<std::string> refused;                // by thread: why not

    ThreadPass(const CountingTier& t, const TierRequest& r, const Workload& w, PassPlan p, unsigned threads)
        : tier(t), request(r), one(w), plan(p), start(threads), results(threads), refused(threads) {}

    static void run(void* ctx, std::uint64_t) {
        auto& pass = *static_cast<ThreadPass*>(ctx);
        const unsigned index = glint::thread_index();
        std::unique_ptr<CountingTier> twin;
        {
            std::lock_guard lock(pass.opening);
            try {
                twin = pass.tier.thread_twin();
                const std::vector<Status> st = twin->open(pass.request);
                if (st.empty() || !st.front().usable()) {
                    pass.refused[index] = st.empty() ? "nothing to open" : st.front().reason;
                    twin.reset();
                }
            } catch (const std::exception& e) {
                pass.refused[index] = e.what();
                twin.reset();
            }
        }
        pass.start.arrive_and_wait();  // every thread counts at once
        if (twin) pass.results[index] = twin->count(pass.one, pass.plan);
    }
};

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// rows[].counters of a multi-threaded row: how each tier covered its threads.
std::string counters_text(unsigned threads, const std::vector<std::string>& summed,
                          const std::vector<std::string>& process, const std::vector<std::string>& uncovered,
                          bool passes_skipped) {
    std::vector<std::string> parts;
    if (!summed.empty())
        parts.push_back("each of the " + std::to_string(threads) + " threads counted itself (" + joined(summed) +
                        ": its own group, opened and read on that thread) and each count or time cell is "
                        "their sum, ratio and percent cells —, each thread's own in threadCounts");
    if (!process.empty()) parts.push_back(joined(process) + ": process-wide, its brackets hold every thread");
    if (!uncovered.empty())
        parts.push_back(joined(uncovered) + ": not counted, its counters follow one thread (cells —)");
    if (passes_skipped) parts.push_back("no profile or per-call distribution is taken (they follow one thread)");
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? "; " : "") + parts[i];
    return text + " (docs/threads.md)";
}

bool additive(const catalog::MetricCell& cell) {
    return cell.format == catalog::Format::count || cell.format == catalog::Format::nanoseconds;
}

}  // namespace

CountedCase TierSet::count_threads(const Workload& one, const Workload& team, unsigned threads,
                                   const TimingSummary& timing, const std::function<void()>& progress) const {
    CountedCase counted;
    Json per_thread = Json::array();
    for (unsigned i = 0; i < threads; ++i) per_thread.push_back(Json::object());
    std::vector<std::string> summed, process, uncovered, missed;
    unsigned counted_threads = threads;  // threads every per-thread tier counted
    for (auto* tier : counting_) {
        if (progress) progress();
        const PassPlan plan = plan_pass(timing, sizing_);
        const std::string source(tier->source());
        if (tier->counts_process()) {
            PassResult pass = tier->count(team, plan);
            counted.cells.insert(counted.cells.end(), pass.cells.begin(), pass.cells.end());
            counted.count_iterations = plan.iterations;
            process.push_back(source);
            continue;
        }
        if (!tier->thread_twin()) {
            uncovered.push_back(source);
            continue;
        }
        ThreadPass pass(*tier, request_, one, plan, threads);
        ThreadTeam workers({&ThreadPass::run, &pass}, threads);
        const glint::detail::Batch all = workers.batch();
        all.run(all.ctx, 1);
        unsigned ok = 0;
        const std::vector<catalog::MetricCell>* shape = nullptr;
        for (unsigned i = 0; i < threads; ++i) {
            if (!pass.results[i]) {
                missed.push_back(source + " on thread " + std::to_string(i) + ": " + pass.refused[i]);
                continue;
            }
            ++ok;
            shape = &pass.results[i]->cells;
            for (const auto& cell : pass.results[i]->cells)
                per_thread.as_array()[i][cell.name] = cell.measured() ? Json(cell.value) : Json();
        }
        counted_threads = std::min(counted_threads, ok);
        if (!shape) continue;
        for (std::size_t c = 0; c < shape->size(); ++c) {
            catalog::MetricCell cell = (*shape)[c];
            double sum = ok == threads && additive(cell) ? 0.0 : catalog::kNotMeasured;
            for (unsigned i = 0; i < threads && !std::isnan(sum); ++i) {
                const catalog::MetricCell& mine = pass.results[i]->cells[c];
                sum += mine.value;  // nan stays nan
                cell.estimated = cell.estimated || mine.estimated;  // a sum of estimates is one
            }
            cell.value = sum;
            counted.cells.push_back(std::move(cell));
        }
        counted.count_iterations = plan.iterations;
        summed.push_back(source);
    }
    if (open_.empty()) return counted;
    const bool passes_skipped =
        std::any_of(extensions_.begin(), extensions_.end(), [](const RunExtension* e) { return e->has_pass(); });
    counted.row_fields["counters"] = counters_text(threads, summed, process, uncovered, passes_skipped);
    Json coverage = Json::object();
    coverage["threads"] = static_cast<unsigned long>(threads);
    const unsigned covered = summed.empty() && process.empty() ? 0 : counted_threads;
    coverage["counted"] = static_cast<unsigned long>(covered);
    coverage["missed"] = static_cast<unsigned long>(threads - covered);
    Json why = Json::array();
    for (auto& m : missed) why.push_back(m);
    coverage["missedWhy"] = std::move(why);
    counted.row_fields["threadCoverage"] = std::move(coverage);
    if (!summed.empty()) counted.row_fields["threadCounts"] = std::move(per_thread);
    return counted;
}

}  // namespace glint::engine
