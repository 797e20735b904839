// engine/runner/session.hpp: where glint::iter, glint::bench_case and glint::bench_provenance
// go while a body runs. The runner installs a session around each body; without one (a body
// called outside the runner) iter calls its callable once and bench_case runs its case once.
#pragma once

#include <memory>
#include <string_view>

#include <glint/bench.hpp>

namespace glint::engine {

class Session {
  public:
    virtual ~Session() = default;
    // `options`: the call's pinned iterations and its own client metrics (unresolved).
    virtual void on_iter(glint::detail::Batch batch, const glint::detail::IterOptions& options) = 0;
    virtual void on_case(glint::CaseInfo info, std::unique_ptr<glint::detail::PerCall> body) = 0;
    virtual void on_provenance(std::string_view line) = 0;
};

// Installs `session` for the lifetime of the guard (restoring the previous one).
class SessionScope {
  public:
    explicit SessionScope(Session& session);
    ~SessionScope();
    SessionScope(const SessionScope&) = delete;
    SessionScope& operator=(const SessionScope&) = delete;

  private:
    Session* previous_;
};

// Runs a per-call case once, as a plain test: setup, timed, after, teardown. Throws on failure
// (CaseFailure when after() reports an error).
void run_case_once(const glint::CaseInfo& info, glint::detail::PerCall& body);

}  // namespace glint::engine
