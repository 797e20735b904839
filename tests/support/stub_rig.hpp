// tests/support/stub_rig.hpp: shared pieces of the tests that run JIT stubs on the emulated x86
// PMU (support/emulated_pmu.hpp; tests tagged _linux_x86_64): simulated bodies and helpers.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "arch/x86_64/bracket_calibration.hpp"
#include "arch/x86_64/bracket_stub.hpp"
#include "support/emulated_pmu.hpp"
#include "support/known_loop.hpp"
#include "support/skip.hpp"

namespace glint::test {

// A body whose cost is known: each call advances event e by per_iteration[e] * n + per_call.
struct SimBody {
    EmulatedPmu* pmu = nullptr;
    std::int64_t per_iteration[EmulatedPmu::kMaxEvents] = {};
    std::int64_t per_call = 0;

    static void run(void* ctx, std::uint64_t n) {
        auto* b = static_cast<SimBody*>(ctx);
        for (int e = 0; e < b->pmu->events(); ++e) {
            b->pmu->advance(e, b->per_iteration[e] * static_cast<std::int64_t>(n) + b->per_call);
        }
    }
};

inline void empty_body(void*, std::uint64_t) {}

inline std::unique_ptr<arch::x86_64::BracketStub> must_emit(arch::x86_64::EmitResult r) {
    REQUIRE_MESSAGE(r.stub != nullptr, r.error);
    return std::move(r.stub);
}

// `count` empty-body brackets of `stub`, for min_cost.
inline std::vector<arch::x86_64::BracketRecord> empty_brackets(
    const arch::x86_64::BracketStub& stub, int count,
    arch::x86_64::BracketStub::Run run = &empty_body, void* ctx = nullptr) {
    std::vector<arch::x86_64::BracketRecord> records(static_cast<std::size_t>(count));
    for (auto& r : records) stub(run, ctx, 0, &r);
    return records;
}

// Ends the calling test case as skipped (support/skip.hpp: ctest shows it skipped, never
// passed) when rdpmc does not trap on this host, so the rig cannot emulate it.
#define GLINT_REQUIRE_EMULATION(pmu)                                                    \
    do {                                                                                \
        if (!(pmu).intercepts())                                                        \
            return ::glint::test::skip(                                                 \
                "rdpmc does not trap on this host (user rdpmc always granted), so the " \
                "emulated PMU cannot run: nothing here is checked");                    \
    } while (0)

}  // namespace glint::test
