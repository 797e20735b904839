#include "engine/runner/plain_run.hpp"

#include <atomic>
#include <cstdio>
#include <exception>

#include "engine/registry/registry.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/runner/grouping.hpp"
#include "engine/runner/isolation.hpp"
#include "engine/runner/session.hpp"
#include "engine/tiers/tier.hpp"
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
    std::printf("FAIL  %s: %s inside the case\n%d passed, %d failed\n", name->c_str(), call.c_str(),
                counts->passed, counts->failed + 1);
    std::fprintf(stderr, "glint: %s: %s inside the case: the run stops here\n", name->c_str(), call.c_str());
    std::fflush(nullptr);
    os::exit_immediately(1);
}

class PlainSession final : public Session {
public:
    PlainSession(const Options& options, PlainListener* listener) : options_(options), listener_(listener) {}

    PlainCounts run(const Registration* only) {
        SessionScope scope(*this);
        for (const auto& r : registrations()) {
            if (only && &r != only) continue;
            if (!filter_may_select_under(options_.filter, r.name)) continue;
            current_ = &r;
            reported_ = false;
            cases_seen_ = 0;
            in_flight(r.name);
            try {
                r.body();
                if (!reported_ && filter_selects(options_.filter, r.name)) pass(r.name);
            } catch (...) {
                fail(r.name, describe_failure(std::current_exception()));
            }
        }
        g_plain_case.store(nullptr);
        return counts_;
    }

    void on_iter(glint::detail::Batch batch, glint::Iterations) override {
        if (filter_selects(options_.filter, current_->name)) batch.run(batch.ctx, 1);
    }

    void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall> body) override {
        reported_ = true;  // the body is a matrix of cases: each reports itself
        const std::size_t index = cases_seen_++;
        const std::string full = current_->name + "/" + info.name;
        if (!filter_selects_case(options_.filter, current_->name, info.name)) return;
        if (listener_ && listener_->defer(info, index)) return;
        in_flight(full);
        try {
            run_case_once(info, *body);
            pass(full);
        } catch (...) {
            fail(full, describe_failure(std::current_exception()));
        }
        in_flight(current_->name);
    }

    void on_provenance(std::string_view) override {}  // inert outside --bench

    PlainCounts counts_;

private:
    void in_flight(const std::string& name) {
        in_flight_ = name;
        g_plain_case.store(&in_flight_);
        if (listener_) listener_->started(name);
    }
    void pass(const std::string& name) {
        ++counts_.passed;
        if (listener_) listener_->ended(true);
        print_plain_result(name, nullptr);
    }
    void fail(const std::string& name, const std::string& why) {
        ++counts_.failed;
        if (listener_) listener_->ended(false);
        print_plain_result(name, &why);
    }

    const Options& options_;
    PlainListener* listener_;
    const Registration* current_ = nullptr;
    bool reported_ = false;
    std::size_t cases_seen_ = 0;
    std::string in_flight_;
};

class DiscoverSession final : public Session {
public:
    explicit DiscoverSession(const Options& options) : options_(options) {}

    std::vector<DiscoveredCase> run() {
        SessionScope scope(*this);
        for (const auto& r : registrations()) {
            if (!filter_may_select_under(options_.filter, r.name)) continue;
            current_ = &r;
            try {
                r.body();
            } catch (...) {
                // A body that fails is reported by a real run; discovery only lists.
            }
        }
        return std::move(found_);
    }

    void on_iter(glint::detail::Batch, glint::Iterations) override {}
    void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall>) override {
        found_.push_back({current_->name, info.name, sorted_labels(info.labels), info.metrics});
    }
    void on_provenance(std::string_view) override {}

private:
    const Options& options_;
    const Registration* current_ = nullptr;
    std::vector<DiscoveredCase> found_;
};

}  // namespace

void print_plain_result(const std::string& name, const std::string* failure) {
    if (failure) {
        std::printf("FAIL  %s: %s\n", name.c_str(), failure->c_str());
        std::fprintf(stderr, "glint: %s: %s\n", name.c_str(), failure->c_str());
    } else {
        std::printf("ok    %s\n", name.c_str());
    }
    std::fflush(stdout);  // a case that dies next must not take the line with it
}

PlainCounts run_plain_cases(const Options& options, const Registration* only, PlainListener* listener) {
    PlainSession session(options, listener);
    if (listener) return session.run(only);
    g_plain_owner = os::process_id();
    g_plain_counts.store(&session.counts_);
    os::set_exit_hook(&plain_exit_hook);
    const PlainCounts counts = session.run(only);
    os::set_exit_hook(nullptr);
    g_plain_counts.store(nullptr);
    return counts;
}

int run_plain(const Options& options) {
    const PlainCounts counts = options.isolate ? run_plain_isolated(options) : run_plain_cases(options, nullptr);
    std::printf("%d passed, %d failed\n", counts.passed, counts.failed);
    return counts.failed ? 1 : 0;
}

std::vector<DiscoveredCase> discover_cases(const Options& options) {
    return DiscoverSession(options).run();
}

}  // namespace glint::engine
