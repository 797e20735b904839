// TierSet::count_threads: the counting passes of a multi-threaded case (tier_set.hpp).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/threads/thread_team.hpp"
#include "engine/tiers/pass_plan.hpp"
#include "engine/tiers/passes_together.hpp"
#include "engine/tiers/tier_set.hpp"
#include "engine/timing/clock.hpp"
#include "os/thread_usage.hpp"

namespace glint::engine {
namespace {

// A thread's pass lasts at least this long (unless --perf-iters says otherwise), so the threads'
// passes overlap nearly whole: a short pass could end before the next thread's began, and
// would count no contention the timed row had.
constexpr double kThreadPassNs = 20e6;

// One tier's pass on every thread of a team: each thread opens its own twin (one at a time:
// opening touches process-wide caches), all wait until every one is ready (spinning, so they
// start within microseconds and none sleeps), then each counts itself.
struct ThreadPass {
    const CountingTier& tier;
    const TierRequest& request;
    const Workload& one;
    PassPlan plan;
    unsigned threads;
    std::atomic<unsigned> ready{0};
    std::atomic_flag opening;  // a spin lock: a thread asleep on a mutex is woken onto the
                               // waker's CPU, and the two would then count sharing one CPU
    std::vector<std::optional<PassResult>> results;  // by thread; empty: the twin did not open
    std::vector<std::string> refused;                // by thread: why not
    std::vector<PassSpan> spans;                     // by thread

    ThreadPass(const CountingTier& t, const TierRequest& r, const Workload& w, PassPlan p,
               unsigned team)
        : tier(t),
          request(r),
          one(w),
          plan(p),
          threads(team),
          results(team),
          refused(team),
          spans(team) {}

    static void run(void* ctx, std::uint64_t) {
        auto& pass = *static_cast<ThreadPass*>(ctx);
        const unsigned index = glint::thread_index();
        std::unique_ptr<CountingTier> twin;
        {
            while (pass.opening.test_and_set(std::memory_order_acquire)) std::this_thread::yield();
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
            pass.opening.clear(std::memory_order_release);
        }
        pass.ready.fetch_add(1);  // every thread counts at once
        while (pass.ready.load() < pass.threads) std::this_thread::yield();
        if (!twin) return;
        const std::int64_t cpu_start = os::thread_cpu_ns(), start = now_ns();
        pass.results[index] = twin->count(pass.one, pass.plan);
        const std::int64_t stop = now_ns(), cpu_stop = os::thread_cpu_ns();
        pass.spans[index] = {start, stop,
                             cpu_start >= 0 && cpu_stop >= 0 ? cpu_stop - cpu_start : -1};
    }

    // passes_together of the threads' passes; nan: a twin did not count.
    double together() const {
        for (const auto& r : results)
            if (!r) return NAN;
        return passes_together(spans);
    }
};

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// rows[].counters of a multi-threaded row: how each tier covered its threads.
std::string counters_text(unsigned threads, const std::vector<std::string>& summed,
                          const std::vector<std::string>& process,
                          const std::vector<std::string>& uncovered, bool passes_skipped) {
    std::vector<std::string> parts;
    if (!summed.empty())
        parts.push_back(
            "each of the " + std::to_string(threads) + " threads counted itself (" +
            joined(summed) +
            ": its own group, opened and read on that thread) and each count or time cell is "
            "their sum, ratio and percent cells —, each thread's own in threadCounts");
    if (!process.empty())
        parts.push_back(joined(process) + ": process-wide, its brackets hold every thread");
    if (!uncovered.empty())
        parts.push_back(joined(uncovered) +
                        ": not counted, its counters follow one thread (cells —)");
    if (passes_skipped)
        parts.push_back("no profile or per-call distribution is taken (they follow one thread)");
    std::string text;
    for (std::size_t i = 0; i < parts.size(); ++i) text += (i ? "; " : "") + parts[i];
    return text + " (docs/threads.md)";
}

}  // namespace

double passes_together(std::span<const PassSpan> passes) {
    if (passes.empty()) return NAN;
    std::int64_t last_start = passes.front().start, first_stop = passes.front().stop;
    double shortest = INFINITY, on_cpu = 1;
    for (const PassSpan& s : passes) {
        if (s.cpu < 0 || s.stop <= s.start) return NAN;
        last_start = std::max(last_start, s.start);
        first_stop = std::min(first_stop, s.stop);
        const auto span = static_cast<double>(s.stop - s.start);
        shortest = std::min(shortest, span);
        on_cpu = std::min(on_cpu, static_cast<double>(s.cpu) / span);
    }
    const double overlap = static_cast<double>(std::max<std::int64_t>(0, first_stop - last_start));
    return std::clamp(overlap / shortest * on_cpu, 0.0, 1.0);
}

CountedCase TierSet::count_threads(const Workload& one, const Workload& team, unsigned threads,
                                   const std::vector<unsigned>& cpus, const TimingSummary& timing,
                                   const std::function<void()>& progress) const {
    CountedCase counted;
    Json per_thread = Json::array();
    for (unsigned i = 0; i < threads; ++i) per_thread.push_back(Json::object());
    std::vector<std::string> summed, process, uncovered, missed;
    unsigned counted_threads = threads;  // threads every per-thread tier counted
    double together = NAN;               // the least share of a tier's passes run at once
    for (auto* tier : counting_) {
        if (progress) progress();
        PassSizing sizing = sizing_;
        if (!sizing.iterations && timing.median_ns > 0)
            sizing.iterations =
                std::max(plan_pass(timing, sizing_).iterations,
                         static_cast<std::uint64_t>(std::ceil(kThreadPassNs / timing.median_ns)));
        const PassPlan plan = plan_pass(timing, sizing);
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
        {
            ThreadTeam workers({&ThreadPass::run, &pass}, threads, cpus);  // each on its CPU
            const glint::detail::Batch all = workers.batch();
            all.run(all.ctx, 1);
        }
        unsigned ok = 0;
        const std::vector<catalog::MetricCell>* shape = nullptr;
        for (unsigned i = 0; i < threads; ++i) {
            if (!pass.results[i]) {
                missed.push_back(source + " on thread " + std::to_string(i) + ": " +
                                 pass.refused[i]);
                continue;
            }
            ++ok;
            shape = &pass.results[i]->cells;
            for (const auto& cell : pass.results[i]->cells)
                per_thread.as_array()[i][cell.name] = cell.measured() ? Json(cell.value) : Json();
        }
        counted_threads = std::min(counted_threads, ok);
        if (const double t = pass.together(); !std::isnan(t))
            together = std::isnan(together) ? t : std::min(together, t);
        if (!shape) continue;
        for (std::size_t c = 0; c < shape->size(); ++c) {
            catalog::MetricCell cell = (*shape)[c];
            double sum = ok == threads && additive(cell) ? 0.0 : catalog::kNotMeasured;
            for (unsigned i = 0; i < threads && !std::isnan(sum); ++i) {
                const catalog::MetricCell& mine = pass.results[i]->cells[c];
                sum += mine.value;                                  // nan stays nan
                cell.estimated = cell.estimated || mine.estimated;  // a sum of estimates is one
            }
            cell.value = sum;
            counted.cells.push_back(std::move(cell));
        }
        counted.count_iterations = plan.iterations;
        summed.push_back(source);
    }
    if (open_.empty()) return counted;
    const bool passes_skipped = std::any_of(extensions_.begin(), extensions_.end(),
                                            [](const RunExtension* e) { return e->has_pass(); });
    counted.row_fields["counters"] =
        counters_text(threads, summed, process, uncovered, passes_skipped);
    Json coverage = Json::object();
    coverage["threads"] = static_cast<unsigned long>(threads);
    const unsigned covered = summed.empty() && process.empty() ? 0 : counted_threads;
    coverage["counted"] = static_cast<unsigned long>(covered);
    coverage["missed"] = static_cast<unsigned long>(threads - covered);
    Json why = Json::array();
    for (auto& m : missed) why.push_back(m);
    coverage["missedWhy"] = std::move(why);
    coverage["passesTogether"] = together;  // nan: null (no per-thread pass)
    counted.row_fields["threadCoverage"] = std::move(coverage);
    if (!summed.empty()) counted.row_fields["threadCounts"] = std::move(per_thread);
    return counted;
}

}  // namespace glint::engine
