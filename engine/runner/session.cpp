#include "engine/runner/session.hpp"

#include <cstdio>
#include <cstdlib>

#include "engine/registry/registry.hpp"
#include "engine/tiers/tier.hpp"
#include "engine/timing/windows.hpp"

namespace glint::engine {
namespace {
Session* g_session = nullptr;
}

SessionScope::SessionScope(Session& session) : previous_(g_session) { g_session = &session; }
SessionScope::~SessionScope() { g_session = previous_; }

void run_case_once(const glint::CaseInfo& info, glint::detail::PerCall& body) {
    if (info.setup) info.setup();
    Workload work;
    work.per_call = &body;
    try {
        body.timed();
        work.after_one();
    } catch (...) {
        if (info.teardown) info.teardown();
        throw;
    }
    if (info.teardown) info.teardown();
}

}  // namespace glint::engine

namespace glint::detail {

void run_iter(Batch batch, IterOptions options) {
    if (engine::g_session) {
        engine::g_session->on_iter(batch, options);
    } else {
        engine::run_untimed(batch, 1);
    }
}

void unprepared_window(std::uint64_t asked, std::uint64_t ready) {
    // A runner bug, never the user's: every caller prepares a window before running it.
    std::fprintf(stderr,
                 "glint: internal error: iter_batched window of %llu iterations run with %llu "
                 "inputs prepared\n",
                 static_cast<unsigned long long>(asked), static_cast<unsigned long long>(ready));
    std::abort();
}

void add_case(CaseInfo info, std::unique_ptr<PerCall> body) {
    if (engine::g_session) {
        engine::g_session->on_case(std::move(info), std::move(body));
    } else {
        engine::run_case_once(info, *body);
    }
}

}  // namespace glint::detail

namespace glint {

void bench_provenance(std::string_view line) {
    if (engine::g_session) engine::g_session->on_provenance(line);
    else engine::add_provenance(line);
}

}  // namespace glint
