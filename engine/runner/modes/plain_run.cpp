#include "engine/runner/modes/plain_run.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "engine/model/sanitize.hpp"
#include "engine/registry/params.hpp"
#include "engine/registry/registry.hpp"
#include "engine/runner/bench/grouping.hpp"
#include "engine/runner/body_runs.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/runner/keeping/supervision.hpp"
#include "engine/runner/modes/deleted_probe.hpp"
#include "engine/runner/session.hpp"
#include "engine/threads/thread_team.hpp"
#include "engine/tiers/client_metrics.hpp"
#include "engine/tiers/tier.hpp"
#include "engine/timing/windows.hpp"
#include "os/process.hpp"

namespace glint::engine {
namespace {

// The case in flight, for the exit hook (set only while a plain run is in progress).
std::atomic<const std::string*> g_plain_case{nullptr};
std::atomic<PlainCounts*> g_plain_counts{nullptr};
int g_plain_owner = 0;

void plain_exit_hook(int status) {
    const std::string* name = g_plain_case.load();
    PlainCounts* counts = g_plain_counts.load();
    if (!name || !counts || os::process_id() != g_plain_owner) return;
    const std::string call = status < 0 ? "quick_exit()" : "exit(" + std::to_string(status) + ")";
    const std::string shown = sanitize::terminal(*name);
    std::printf("FAIL  %s: %s inside the case\n%d passed, %d failed\n", shown.c_str(), call.c_str(),
                counts->passed, counts->failed + 1);
    std::fprintf(stderr, "glint: %s: %s inside the case: the run stops here\n", shown.c_str(),
                 call.c_str());
    std::fflush(nullptr);
    os::exit_immediately(1);
}

// The case in flight as the terminal shows it, for a signal handler: two slots, the one not
// shown written before it is published (a handler reads the other one whole).
char g_plain_shown[2][1024];
std::atomic<int> g_plain_slot{-1};

void publish_plain_case(const std::string& name) {
    const int slot = g_plain_slot.load() == 0 ? 1 : 0;
    const std::string shown = sanitize::terminal(name);
    const std::size_t n = std::min(shown.size(), sizeof g_plain_shown[slot] - 1);
    shown.copy(g_plain_shown[slot], n);
    g_plain_shown[slot][n] = '\0';
    g_plain_slot.store(slot);
}

// Async-signal-safe: decimal digits of `n` (at least 0) into `out` (12 bytes).
const char* plain_count(int n, char* out) {
    char digits[12];
    int len = 0;
    unsigned v = n > 0 ? static_cast<unsigned>(n) : 0;
    do {
        digits[len++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0 && len < 11);
    for (int i = 0; i < len; ++i) out[i] = digits[len - 1 - i];
    out[len] = '\0';
    return out;
}

// A signal that ends the process inside a case: its FAIL line and the counts on the standard
// output, a line naming the case and the signal on stderr; the process then dies by it.
void plain_signal(int sig) {
    const int slot = g_plain_slot.load();
    const PlainCounts* counts = g_plain_counts.load();
    if (slot < 0 || !counts || os::process_id() != g_plain_owner) return;
    const char* name = g_plain_shown[slot];
    const char* signal = os::signal_abbrev(sig);
    if (!signal) signal = "a signal";
    char passed[12], failed[12];
    for (const char* part :
         {"FAIL  ", name, ": killed by ", signal, "\n", plain_count(counts->passed, passed),
          " passed, ", plain_count(counts->failed + 1, failed), " failed\n"})
        os::write_stdout(part);
    for (const char* part :
         {"glint: ", name, ": killed by ", signal,
          " inside the case: the run stops here (--isolate runs each case in a child process "
          "and goes on)\n"})
        os::write_stderr(part);
}

// --case-timeout without --isolate: a case (a body, or a bench_case) still running after it
// ends the run as exit() inside it does (its FAIL line, the counts, exit status 1).
class PlainTimeout {
  public:
    explicit PlainTimeout(double limit_s) : limit_(std::chrono::duration<double>(limit_s)) {
        if (limit_s > 0) thread_ = std::thread([this] { watch(); });
    }
    ~PlainTimeout() {
        {
            std::lock_guard lock(mutex_);
            done_ = true;
        }
        wake_.notify_all();
        if (thread_.joinable()) thread_.join();
    }
    double limit_s() const { return thread_.joinable() ? limit_.count() : 0; }
    // The case stopped itself past the limit and the watching parent continued it: the run
    // ends as the limit ends it, whichever thread sees it first.
    void stop_if_overdue() {
        if (!supervised_overdue()) return;
        std::lock_guard lock(mutex_);
        stop_run();
    }
    void case_started() {
        std::lock_guard lock(mutex_);
        start_ = std::chrono::steady_clock::now();
        running_ = true;
        wake_.notify_all();
    }

  private:
    void watch() {
        std::unique_lock lock(mutex_);
        while (!done_) {
            if (!running_) {
                wake_.wait(lock);
                continue;
            }
            const auto deadline =
                start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(limit_);
            if (wake_.wait_until(lock, deadline) == std::cv_status::timeout && !done_ &&
                (std::chrono::steady_clock::now() >= start_ + limit_ || supervised_overdue()))
                stop_run();
        }
    }
    void stop_run() {
        const std::string* name = g_plain_case.load();
        const PlainCounts* counts = g_plain_counts.load();
        const std::string shown = name ? *name : "a case";
        std::printf("FAIL  %s: timeout after %g s (--case-timeout)\n%d passed, %d failed\n",
                    shown.c_str(), limit_.count(), counts ? counts->passed : 0,
                    counts ? counts->failed + 1 : 1);
        std::fprintf(stderr,
                     "glint: %s: still running after %g s (--case-timeout): the run stops here "
                     "(--isolate ends only that case and goes on)\n",
                     shown.c_str(), limit_.count());
        std::fflush(nullptr);
        os::exit_immediately(1);
    }

    std::chrono::duration<double> limit_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::chrono::steady_clock::time_point start_;
    bool running_ = false;
    bool done_ = false;
    std::thread thread_;
};

class PlainSession final : public Session {
  public:
    PlainSession(const CaseRun& cases, PlainListener* listener)
        : filter_(CaseFilter::parse(cases.filter)),
          listener_(listener),
          // An isolated child is timed by its parent.
          timeout_(listener ? 0 : cases.case_timeout_s) {}

    PlainCounts run(const BodyRun* only) {
        SessionScope scope(*this);
        if (only) run_one(*only);
        else for_each_body_run(filter_, [&](const BodyRun& run) { run_one(run); });
        g_plain_case.store(nullptr);
        supervised_case("");
        return counts_;
    }

    void on_iter(glint::detail::Batch batch, const glint::detail::IterOptions& options) override {
        const std::string& name = run_->registration.name;
        if (!filter_.selects(iter_path(name, ++iter_calls_), name, run_->labels)) return;
        resolve_metrics(run_->registration, run_->instance,
                        options.metrics);  // a bad param fails the case
        run_once(batch);
        ++iters_run_;
    }

    void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall> body) override {
        if (threads_of(run_->instance) > 1) throw std::invalid_argument(kBenchCaseOneThread);
        reported_ = true;  // the body is a matrix of cases: each reports itself
        const std::size_t index = cases_seen_++;
        info.labels = with_param_labels(std::move(info.labels), run_->instance);
        const Labels labels = sorted_labels(info.labels);
        const std::string path = case_path(run_->registration.name, info.name);
        if (!filter_.selects(path, run_->registration.name, labels)) return;
        if (listener_ && listener_->defer(info, index)) return;
        const std::string shown = display_name(run_->registration.name, info.name, labels);
        in_flight(shown);
        try {
            resolve_metrics(run_->registration, run_->instance,
                            info.metrics);  // as a --bench run would
            run_case_once(info, *body);
            pass(shown);
        } catch (...) {
            fail(shown, describe_failure(std::current_exception()));
        }
        in_flight(shown_);
    }

    void on_provenance(std::string_view) override {}  // inert outside --bench

    PlainCounts counts_;

  private:
    // One iteration, on each thread of a threads parameter (docs/threads.md).
    void run_once(const glint::detail::Batch& batch) {
        const unsigned threads = threads_of(run_->instance);
        if (threads <= 1) return run_probing_deleted(batch);  // deleted_probe.hpp
        if (auto problem = threaded_batch_problem(batch)) throw std::invalid_argument(*problem);
        ThreadTeam team(batch, threads);
        const glint::detail::Batch all = team.batch();
        all.run(all.ctx, 1);
    }
    void run_one(const BodyRun& run) {
        run_ = &run;
        reported_ = false;
        iter_calls_ = iters_run_ = 0;
        cases_seen_ = 0;
        const std::string& name = run.registration.name;
        shown_ = display_name(name, name, run.labels);
        in_flight(shown_);
        try {
            run.registration.body();
            // One line for the registration's own rows: its iters, or its whole body.
            const bool whole = iter_calls_ == 0 && filter_.selects(name, name, run.labels);
            if (!reported_ && (iters_run_ > 0 || whole)) pass(shown_);
        } catch (...) {
            fail(shown_, describe_failure(std::current_exception()));
        }
    }
    void in_flight(const std::string& name) {
        g_plain_case.store(nullptr);
        in_flight_ = name;
        g_plain_case.store(&in_flight_);
        publish_plain_case(name);
        supervised_case(name, timeout_.limit_s());
        timeout_.case_started();
        if (listener_) listener_->started(name);
    }
    void pass(const std::string& name) {
        timeout_.stop_if_overdue();
        ++counts_.passed;
        if (listener_) listener_->ended(true);
        print_plain_result(name, nullptr);
    }
    void fail(const std::string& name, const std::string& why) {
        timeout_.stop_if_overdue();
        ++counts_.failed;
        if (listener_) listener_->ended(false);
        print_plain_result(name, &why);
    }

    CaseFilter filter_;
    PlainListener* listener_;
    const BodyRun* run_ = nullptr;
    std::string shown_;  // the body run's name, labels included
    bool reported_ = false;
    int iter_calls_ = 0;
    int iters_run_ = 0;
    std::size_t cases_seen_ = 0;
    std::string in_flight_;
    PlainTimeout timeout_;
};

class DiscoverSession final : public Session {
  public:
    explicit DiscoverSession(const CaseRun& cases) : filter_(CaseFilter::parse(cases.filter)) {}

    std::vector<DiscoveredCase> run() {
        SessionScope scope(*this);
        for_each_body_run(filter_, [&](const BodyRun& run) {
            run_ = &run;
            iter_calls_ = 0;
            const std::size_t before = found_.size();
            bool cases = false;
            try {
                run.registration.body();
            } catch (...) {
                // A body that fails is reported by a real run; discovery only lists.
            }
            cases = found_.size() > before;
            const std::string& name = run.registration.name;
            if (!cases && iter_calls_ == 0 && filter_.selects(name, name, run.labels))
                found_.push_back({name,
                                  {},
                                  name,
                                  DiscoveredCase::Kind::body,
                                  run.labels,
                                  resolved(run.registration.metrics)});
        });
        return std::move(found_);
    }

    void on_iter(glint::detail::Batch, const glint::detail::IterOptions& options) override {
        const std::string& name = run_->registration.name;
        std::string path = iter_path(name, ++iter_calls_);
        if (filter_.selects(path, name, run_->labels))
            found_.push_back(
                {name,
                 {},
                 std::move(path),
                 DiscoveredCase::Kind::iter,
                 run_->labels,
                 merged_metrics(resolved(run_->registration.metrics), resolved(options.metrics))});
    }
    void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall>) override {
        const std::string& name = run_->registration.name;
        Labels labels = sorted_labels(with_param_labels(std::move(info.labels), run_->instance));
        std::string path = case_path(name, info.name);
        if (filter_.selects(path, name, labels))
            found_.push_back({name, info.name, std::move(path), DiscoveredCase::Kind::bench_case,
                              std::move(labels), resolved(info.metrics)});
    }
    void on_provenance(std::string_view) override {}

  private:
    // The metrics of the body run in progress (one naming no parameter kept unscaled: the
    // listing shows its column; a run reports the problem).
    std::vector<glint::Metric> resolved(std::vector<glint::Metric> metrics) const {
        try {
            return resolve_metrics(run_->registration, run_->instance, metrics);
        } catch (const MetricParamError&) {
            return metrics;
        }
    }

    CaseFilter filter_;
    const BodyRun* run_ = nullptr;
    int iter_calls_ = 0;
    std::vector<DiscoveredCase> found_;
};

}  // namespace

void print_plain_result(const std::string& raw_name, const std::string* raw_failure) {
    const std::string name = sanitize::terminal(raw_name);
    if (raw_failure) {
        const std::string failure = sanitize::terminal(*raw_failure);
        std::printf("FAIL  %s: %s\n", name.c_str(), failure.c_str());
        std::fprintf(stderr, "glint: %s: %s\n", name.c_str(), failure.c_str());
    } else {
        std::printf("ok    %s\n", name.c_str());
    }
    std::fflush(stdout);  // a case that dies next must not take the line with it
}

PlainCounts run_plain_cases(const CaseRun& cases, const BodyRun* only, PlainListener* listener) {
    PlainSession session(cases, listener);
    if (listener) return session.run(only);
    g_plain_owner = os::process_id();
    g_plain_counts.store(&session.counts_);
    os::set_exit_hook(&plain_exit_hook);
    os::watch_fatal_signals(&plain_signal, true);
    const PlainCounts counts = session.run(only);
    os::unwatch_fatal_signals();
    g_plain_slot.store(-1);
    os::set_exit_hook(nullptr);
    g_plain_counts.store(nullptr);
    return counts;
}

int plain_summary(const PlainCounts& counts) {
    std::printf("%d passed, %d failed\n", counts.passed, counts.failed);
    return counts.failed ? 1 : 0;
}

std::vector<DiscoveredCase> discover_cases(const CaseRun& cases) {
    return DiscoverSession(cases).run();
}

}  // namespace glint::engine
