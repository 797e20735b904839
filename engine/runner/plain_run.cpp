#include "engine/runner/plain_run.hpp"

#include <cstdio>
#include <exception>

#include "engine/registry/registry.hpp"
#include "engine/runner/case_filter.hpp"
#include "engine/runner/grouping.hpp"
#include "engine/runner/session.hpp"
#include "engine/tiers/tier.hpp"
#include "engine/timing/windows.hpp"

namespace glint::engine {
namespace {

class PlainSession final : public Session {
public:
    explicit PlainSession(const Options& options) : options_(options) {}

    int run() {
        SessionScope scope(*this);
        for (const auto& r : registrations()) {
            if (!filter_may_select_under(options_.filter, r.name)) continue;
            current_ = &r;
            reported_ = false;
            try {
                r.body();
                if (!reported_ && filter_selects(options_.filter, r.name)) pass(r.name);
            } catch (...) {
                fail(r.name, describe_failure(std::current_exception()));
            }
        }
        std::printf("%d passed, %d failed\n", passed_, failed_);
        return failed_ ? 1 : 0;
    }

    void on_iter(glint::detail::Batch batch, glint::Iterations) override {
        if (filter_selects(options_.filter, current_->name)) run_untimed(batch, 1);
    }

    void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall> body) override {
        reported_ = true;  // the body is a matrix of cases: each reports itself
        const std::string full = current_->name + "/" + info.name;
        if (!filter_selects_case(options_.filter, current_->name, info.name)) return;
        try {
            run_case_once(info, *body);
            pass(full);
        } catch (...) {
            fail(full, describe_failure(std::current_exception()));
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

    const Options& options_;
    const Registration* current_ = nullptr;
    bool reported_ = false;
    int passed_ = 0;
    int failed_ = 0;
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

int run_plain(const Options& options) { return PlainSession(options).run(); }

std::vector<DiscoveredCase> discover_cases(const Options& options) {
    return DiscoverSession(options).run();
}

}  // namespace glint::engine
