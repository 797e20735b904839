#include "engine/runner/session.hpp"

#include "engine/registry/registry.hpp"
#include "engine/tiers/tier.hpp"

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

void run_iter(Batch batch, Iterations pinned) {
    if (engine::g_session) {
        engine::g_session->on_iter(batch, pinned);
    } else {
        batch.run(batch.ctx, 1);
    }
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
