// tests/support/capturing_session.hpp: a runner session (engine/runner/session.hpp) that keeps
// what glint::iter, iter_batched and asm_iter hand the runner, in order: each batch and its
// options; it runs each batch `runs` times, untimed, while the call is in progress (0: never).
#pragma once

#include <glint/bench.hpp>

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "engine/runner/session.hpp"
#include "engine/timing/windows.hpp"

namespace glint::test {

struct CapturingSession final : engine::Session {
    std::vector<glint::detail::Batch> batches;  // a batch's context lives only during its call
    std::vector<glint::detail::IterOptions> calls;
    std::uint64_t runs = 1;
    void on_iter(glint::detail::Batch batch, const glint::detail::IterOptions& options) override {
        batches.push_back(batch);
        calls.push_back(options);
        if (runs > 0) engine::run_untimed(batch, runs);
    }
    void on_case(glint::CaseInfo, std::unique_ptr<glint::detail::PerCall>) override {}
    void on_provenance(std::string_view) override {}
};

}  // namespace glint::test
