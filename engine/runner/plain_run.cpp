#include "engine/runner/plain_run.hpp"

#include <cstdio>
#include <exception>

#include "engine/registry/registry.hpp"
#include "engine/runner/body_runs.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/runner/grouping.hpp"
#include "engine/runner/session.hpp"
#include "engine/tiers/tier.hpp"
#include "engine/timing/windows.hpp"

namespace glint::engine {
namespace {

class PlainSession final : public Session {
public:
    explicit PlainSession(const Options& options) : filter_(CaseFilter::parse(options.filter)) {}

    int run() {
        SessionScope scope(*this);
        for_each_body_run(filter_, [&](const BodyRun& run) {
            run_ = &run;
            reported_ = false;
            iter_calls_ = iters_run_ = 0;
            const std::string& name = run.registration.name;
            const std::string shown = name + label_suffix(run.labels);
            try {
                run.registration.body();
                // One line for the registration's own rows: its iters, or its whole body.
                const bool whole = iter_calls_ == 0 && filter_.selects(name, name, run.labels);
                if (!reported_ && (iters_run_ > 0 || whole)) pass(shown);
            } catch (...) {
                fail(shown, describe_failure(std::current_exception()));
            }
        });
        std::printf("%d passed, %d failed\n", passed_, failed_);
        return failed_ ? 1 : 0;
    }

    void on_iter(glint::detail::Batch batch, glint::Iterations) override {
        const std::string& name = run_->registration.name;
        if (!filter_.selects(iter_path(name, ++iter_calls_), name, run_->labels)) return;
        run_untimed(batch, 1);
        ++iters_run_;
    }

    void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall> body) override {
        reported_ = true;  // the body is a matrix of cases: each reports itself
        info.labels = with_param_labels(std::move(info.labels), run_->instance);
        const Labels labels = sorted_labels(info.labels);
        const std::string path = case_path(run_->registration.name, info.name);
        if (!filter_.selects(path, run_->registration.name, labels)) return;
        const std::string shown = path + label_suffix(labels);
        try {
            run_case_once(info, *body);
            pass(shown);
        } catch (...) {
            fail(shown, describe_failure(std::current_exception()));
        }
    }

    void on_provenance(std::string_view) override {}  // inert outside --bench

private:
    void pass(const std::string& name) {
        ++passed_;
        std::printf("ok    %s\n", name.c_str());
    }
    void fail(const std::string& name, const std::string& why) {
        ++failed_;
        std::printf("FAIL  %s: %s\n", name.c_str(), why.c_str());
        std::fprintf(stderr, "glint: %s: %s\n", name.c_str(), why.c_str());
    }

    CaseFilter filter_;
    const BodyRun* run_ = nullptr;
    bool reported_ = false;
    int iter_calls_ = 0;
    int iters_run_ = 0;
    int passed_ = 0;
    int failed_ = 0;
};

class DiscoverSession final : public Session {
public:
    explicit DiscoverSession(const Options& options) : filter_(CaseFilter::parse(options.filter)) {}

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
                found_.push_back({name, {}, name, DiscoveredCase::Kind::body, run.labels,
                                  run.registration.metrics});
        });
        return std::move(found_);
    }

    void on_iter(glint::detail::Batch, glint::Iterations) override {
        const std::string& name = run_->registration.name;
        std::string path = iter_path(name, ++iter_calls_);
        if (filter_.selects(path, name, run_->labels))
            found_.push_back({name, {}, std::move(path), DiscoveredCase::Kind::iter, run_->labels,
                              run_->registration.metrics});
    }
    void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall>) override {
        const std::string& name = run_->registration.name;
        Labels labels = sorted_labels(with_param_labels(std::move(info.labels), run_->instance));
        std::string path = case_path(name, info.name);
        if (filter_.selects(path, name, labels))
            found_.push_back({name, info.name, std::move(path), DiscoveredCase::Kind::bench_case,
                              std::move(labels), info.metrics});
    }
    void on_provenance(std::string_view) override {}

private:
    CaseFilter filter_;
    const BodyRun* run_ = nullptr;
    int iter_calls_ = 0;
    std::vector<DiscoveredCase> found_;
};

}  // namespace

int run_plain(const Options& options) { return PlainSession(options).run(); }

std::vector<DiscoveredCase> discover_cases(const Options& options) {
    return DiscoverSession(options).run();
}

}  // namespace glint::engine
